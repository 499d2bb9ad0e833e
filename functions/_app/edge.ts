import type { Context } from 'hono';
import type { Db } from '../../db/client';
import { openWebDb } from '../../db/client-web';
import { deploymentFacts } from '../../src/data/site-data';
import { createApp } from './app';
import { type BuildSettings, buildSettingsOf, settingsDrift } from './build-settings';
import type { RebuildTrigger } from './context';
import {
  createEdgePages,
  type EdgeCache,
  type EdgePages,
  type EdgeRenderer,
  edgeRenderGate,
  PageUnavailableError,
  PurgingRebuildTrigger,
  pageUnavailable,
} from './edge-pages';
import { type Env, loadEnv } from './env';
import { BindingRateLimitStore } from './lib/rate-limits';
import { HookRebuildTrigger } from './lib/rebuild-hook';
import { RenderRefused, renderRefusedAnswer } from './lib/render-gate';
import { BASE_CONTENT_SECURITY_POLICY, CSP_POLICY_FILE } from './lib/security-headers';
import {
  answerMiss,
  finalLocation,
  movedTo,
  notFoundScreenPath,
  REQUESTED_SLUG,
  siteRedirect,
  trailingSlashRedirect,
} from './routes/site-redirects';

/** The bindings the Worker gets from wrangler.toml: vars, secrets and the static assets. */
export interface EdgeBindings {
  ASSETS: { fetch(request: Request | string): Promise<Response> };
  [name: string]: unknown;
}

/** The part of the Workers ExecutionContext the entry uses. */
export interface EdgeContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * Which not-found screen a path gets; the same URL shapes as the Node static handler
 * (functions/_app/static.ts, which cannot be bundled for the edge because it reads files).
 */
export const edgeNotFoundPage = notFoundScreenPath;

/** The typed env and the database of a Worker invocation, from its bindings: what fetch and scheduled both build on. */
export function edgeDeps(bindings: EdgeBindings): { env: Env; db: Db } {
  const vars: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(bindings)) if (typeof v === 'string') vars[k] = v;
  const env = loadEnv(vars);
  return { env, db: openWebDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN }).db };
}

/** The Worker's version (wrangler.toml `[version_metadata]`): a new one with every deployment. */
interface VersionMetadata {
  id: string;
}

/** The Workers Cache API (`caches.default`), absent outside workerd. */
const defaultCache = () => (globalThis as { caches?: { default?: EdgeCache } }).caches?.default;

export interface EdgeHandlerOptions {
  /**
   * The build's on-demand page renderer (site-worker.ts): a path without a static file is asked
   * for its page before the redirects and not-found screens. Without it (worker.ts) every such
   * path gets those, as a fully prerendered site needs.
   */
  render?: EdgeRenderer | undefined;
  /**
   * The shared settings as the build read them (site-worker.ts, from the Cloudflare build): the
   * Worker refuses to start when its own differ, as pages and Worker would then disagree (a
   * Turnstile widget missing while posts need a token, two support addresses, two origins).
   */
  buildSettings?: BuildSettings | undefined;
  /** The data center's cache of on-demand pages: the Cache API's `caches.default` unless given (tests). */
  cache?: EdgeCache | undefined;
}

/**
 * Why a Worker built with `build` must not start with `env`: the shared settings that differ,
 * and a Turnstile site key (the pages show the widget) without the secret that checks it.
 */
export function startRefusal(build: BuildSettings, env: Env): string[] {
  const lines = settingsDrift(build, buildSettingsOf(env)).map(
    (line) => `  ${line} (set it in wrangler.toml [vars] and deploy again)`,
  );
  if (env.TURNSTILE_SITE_KEY && !env.TURNSTILE_SECRET) {
    lines.push('  TURNSTILE_SECRET: required with TURNSTILE_SITE_KEY (wrangler secret put TURNSTILE_SECRET)');
  }
  return lines;
}

/**
 * What a Worker invocation builds on, a request and a Cron Trigger alike: the typed env, the
 * database, the deploy hook, the on-demand pages, and the one rebuild trigger both hand to what
 * they run. A change that names its pages (an approval or an edit through a request; a placement
 * starting, a rank recompute or an order reconciled on a Cron Trigger) deletes them from the data
 * center's cache, then goes to the deploy hook: `purging`, whose `settled()` each awaits.
 */
export interface EdgeServices {
  env: Env;
  db: Db;
  /** Undefined when REBUILD_HOOK_URL is not set. */
  hook: HookRebuildTrigger | undefined;
  /** The pages rendered on request (site-worker.ts); undefined without a renderer (worker.ts). */
  pages: EdgePages | undefined;
  /** Undefined without a hook or without on-demand pages. */
  purging: PurgingRebuildTrigger | undefined;
  /** What the app and the jobs ask for a rebuild through: `purging` when there is one, else the hook. */
  rebuild: RebuildTrigger | undefined;
  /** The platform's Rate Limiting bindings (wrangler.toml); `missing` names the rules without one. */
  rateLimitStore: BindingRateLimitStore;
}

/**
 * The services of a Worker with `bindings` (EdgeServices): the one place the fetch and the
 * scheduled handler get them from. Throws, naming every bad setting, when the env is invalid or
 * differs from the build's (startRefusal): the Worker then neither answers nor runs its jobs.
 */
export function edgeServices(bindings: EdgeBindings, options: EdgeHandlerOptions = {}): EdgeServices {
  const { env, db } = edgeDeps(bindings);
  const refusal = options.buildSettings ? startRefusal(options.buildSettings, env) : [];
  if (refusal.length) throw new Error(`Invalid environment:\n${refusal.join('\n')}`);
  const hook = env.REBUILD_HOOK_URL
    ? new HookRebuildTrigger({
        url: env.REBUILD_HOOK_URL,
        token: env.REBUILD_HOOK_TOKEN,
        db,
        log: (line) => console.log(line),
      })
    : undefined;
  // The public limits count in the platform's Rate Limiting bindings (wrangler.toml), shared by
  // the isolates of a location; a rule without its binding counts in this isolate only.
  const rateLimitStore = new BindingRateLimitStore(bindings);
  const version = (bindings.CF_VERSION_METADATA as VersionMetadata | undefined)?.id;
  const pages = options.render
    ? createEdgePages({
        render: options.render,
        db,
        ...deploymentFacts(env),
        origin: env.SITE_URL,
        version,
        cache: options.cache ?? defaultCache(),
        // Renders limited per client through the RATE_LIMIT_RENDERS binding; cached pages are not.
        gate: edgeRenderGate(rateLimitStore, env.RATE_LIMITS),
      })
    : undefined;
  const purging = hook && pages ? new PurgingRebuildTrigger(hook, pages) : undefined;
  return { env, db, hook, pages, purging, rebuild: purging ?? hook, rateLimitStore };
}

interface EdgeRuntime {
  app: ReturnType<typeof createApp>;
  services: EdgeServices;
  /** The build's Content-Security-Policy, for pages the Worker answers (not-found screens). */
  policy: string;
}

/**
 * The Worker's fetch handler: one app per isolate (the database client, the parsed env
 * and the build's CSP are reused across requests), the static assets behind it.
 */
export function createEdgeHandler(options: EdgeHandlerOptions = {}) {
  let runtime: Promise<EdgeRuntime> | null = null;

  const boot = async (bindings: EdgeBindings): Promise<EdgeRuntime> => {
    const services = edgeServices(bindings, options);
    const { env, db, pages, rebuild, rateLimitStore } = services;
    // Pages answered by the Worker (not-found screens) take the same policy as the static ones.
    const policy = await bindings.ASSETS.fetch(`https://assets.local/${CSP_POLICY_FILE}`)
      .then(async (r) => (r.ok ? (await r.text()).trim() : BASE_CONTENT_SECURITY_POLICY))
      .catch(() => BASE_CONTENT_SECURITY_POLICY);
    if (rateLimitStore.missing.length) {
      console.warn(`Rate limits counted per isolate (no binding): ${rateLimitStore.missing.join(', ')}`);
    }
    const runtimeRef: EdgeRuntime = { services, policy, app: undefined as never };
    runtimeRef.app = createApp({
      db,
      env,
      runtime: 'worker',
      rebuild,
      contentSecurityPolicy: () => runtimeRef.policy,
      clientIp: (req) => req.headers.get('cf-connecting-ip') ?? '0.0.0.0',
      rateLimitStore,
      staticSite: (c: Context) => missedPath(bindings, db, c, pages),
      // A refused no-JavaScript form post is answered with its page, filled in.
      sitePage: (path: string) =>
        bindings.ASSETS.fetch(`https://assets.local${path}`).then((r) => (r.ok ? r.text() : null)),
    });
    return runtimeRef;
  };

  return async (request: Request, bindings: EdgeBindings, ctx: EdgeContext): Promise<Response> => {
    runtime ??= boot(bindings).catch((err: unknown) => {
      runtime = null;
      throw err;
    });
    let rt: EdgeRuntime;
    try {
      rt = await runtime;
    } catch (err) {
      // A bad secret or variable: say so in the logs, and answer in the API's envelope.
      console.error('Worker start failed:', err);
      return Response.json(
        {
          error: { code: 'misconfigured', message: 'The service is not configured correctly. Please try again later.' },
        },
        { status: 503, headers: { 'Retry-After': '60' } },
      );
    }
    const response = await rt.app.fetch(request, bindings, ctx as never);
    const { purging, hook } = rt.services;
    // The cached pages a change named are gone before it is answered: the next request renders them.
    await purging?.settled();
    // An isolate may sleep once the response is sent: send any queued deploy-hook POST now, kept
    // alive past the response (flush is a no-op when nothing is queued).
    if (hook) ctx.waitUntil(hook.flush());
    return response;
  };
}

/**
 * Static assets answered first; anything that reaches here matched no file: its on-demand page
 * when the build renders one there (site-worker.ts), else a 301 where the path has moved (a
 * renamed server, a page past the end; the same lookup as on Node), else the not-found screen of
 * its URL shape. A path with a trailing slash reaches the Worker first (wrangler.toml
 * run_worker_first, the pattern of paths ending in a slash) and gets the one rule of both runtimes: 301 without it.
 */
async function missedPath(bindings: EdgeBindings, db: Db, c: Context, pages: EdgePages | undefined): Promise<Response> {
  const canonical = trailingSlashRedirect(c.req.url);
  if (canonical) return c.redirect(await finalLocation(canonical, (p) => siteRedirect(db, p)), 301);
  let onDemand: Response | null | undefined;
  try {
    onDemand = await pages?.page(
      c.req.raw,
      (p) => c.executionCtx.waitUntil(p),
      (c.get('ipHash') as string | undefined) ?? '',
    );
  } catch (err) {
    // Past the client's share of renders or the queue's depth (lib/render-gate.ts), as on Node.
    if (err instanceof RenderRefused) return renderRefusedAnswer(err);
    // The database is away: the page may well exist, so never its not-found screen.
    if (!(err instanceof PageUnavailableError)) throw err;
    console.warn(err.message);
    return pageUnavailable();
  }
  if (onDemand) return onDemand;
  const path = c.req.path;
  const miss = answerMiss(c.req.url, path, await movedTo((p) => siteRedirect(db, p), path));
  if (miss.kind === 'redirect') return c.redirect(miss.location, 301);
  const page = await bindings.ASSETS.fetch(`https://assets.local${miss.page}`);
  if (!page.ok) return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain' } });
  const html = (await page.text()).replaceAll(REQUESTED_SLUG, miss.slug);
  return new Response(html, { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' } });
}
