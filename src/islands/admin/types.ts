/**
 * Shapes of the /api/admin answers that pass between console components, each inferred from
 * its route through the typed client (type-only: nothing server-side ships).
 */

import type { InferResponseType } from 'hono/client';
import type { client } from './api';

type Admin = typeof client.api.admin;

/** The signed-in operator and the session's CSRF token (sign-in and /me). */
export type SessionInfo = InferResponseType<Admin['login']['$post'], 200>;
/** One operator as the console sees it. */
export type Operator = SessionInfo['operator'];
/** The site's rebuild state, and whether a rebuild trigger is configured at all. */
export type BuildStatus = InferResponseType<Admin['build']['$get'], 200>;
/** One listing on the Servers screen. */
export type ServerRow = InferResponseType<Admin['servers']['$get'], 200>['servers'][number];
/** The subscriber figures (the Newsletter screen and the dashboard). */
export type NewsletterStats = InferResponseType<Admin['newsletter']['stats']['$get'], 200>;
