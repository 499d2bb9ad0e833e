import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context';
import { eventsHandler } from '../lib/event-sink';

/**
 * `POST /api/events`: analytics events from the page. Its one handler is the app's speed path
 * (lib/event-sink.ts says what it does and buys); app.ts mounts it ahead of the middleware chain.
 */
export const eventRoutes = (deps: AppDeps) => new Hono<AppEnv>().post('/', eventsHandler(deps));
