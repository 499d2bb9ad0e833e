import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { TrieRouter } from 'hono/router/trie-router';
import { dbHealth } from '../../db/queries/health';
import { type AppDeps, type AppEnv, requestIdOf } from './context';
import { assertRealSecrets } from './env';
import { ApiError, type ErrorBody, isDbUnavailable } from './lib/errors';
import { admit } from './lib/request';
import { BODY_LIMIT_BYTES, payloadTooLarge } from './lib/validate';
import { secureAnswers, secureJson } from './middleware/security-headers';
import { adminRoutes } from './routes/admin';
import { contactRoutes } from './routes/contact';
import { eventRoutes } from './routes/events';
import { goRoutes } from './routes/go';
import { newsletterRoutes } from './routes/newsletter';
import { reportRoutes } from './routes/reports';
import { serverRoutes } from './routes/servers';
import { submissionRoutes } from './routes/submissions';

/** Seconds a client should wait before retrying while the database is away. */
const DB_RETRY_AFTER_S = 5;

const errorJson = (code: string, message: string, issues?: ErrorBody['error']['issues']): ErrorBody => ({
  error: { code, message, ...(issues ? { issues } : {}) },
});

/** The envelope answer of an ApiError, with its status and headers (Retry-After...). */
const apiErrorAnswer = (err: ApiError) =>
  secureJson(errorJson(err.code, err.message, err.issues), err.status, err.headers);

/** Where a URL's path starts (after the scheme and host), without parsing the URL. */
const pathStart = (url: string): number => url.indexOf('/', url.indexOf('//') + 2);

/** Whether a URL's path is the API's or the operator console's (answers no cache may keep). */
const isPrivateUrl = (url: string): boolean => {
  const start = pathStart(url);
  return url.startsWith('/api/', start) || url.startsWith('/admin', start);
};

/** The answer with `Cache-Control: no-store` unless a handler chose its own caching. */
function withNoStore(res: Response): Response {
  if (res.headers.has('cache-control')) return res;
  try {
    res.headers.set('Cache-Control', 'no-store');
    return res;
  } catch {
    // Immutable headers (a fetched or redirect Response): copy once, then add.
    const copy = new Response(res.body, res);
    copy.headers.set('Cache-Control', 'no-store');
    return copy;
  }
}

/** Whether a URL's path is under /api/. */
const isApiUrl = (url: string): boolean => url.startsWith('/api/', pathStart(url));

/**
 * Builds the one Hono app behind every runtime: the Node server (`npm start`), the
 * Cloudflare entry and the tests each pass their own database and settings.
 *
 * Each public route has exactly one handler, which starts with `admit()` (deps, IP hash, origin
 * check, rate limit): Hono runs a route with one handler directly, where a chain of middleware
 * costs a promise and a turn per layer on every request. The security headers and the declared
 * body-size check wrap the dispatch itself, so they cover every answer and every path.
 */
export function createApp(deps: AppDeps) {
  assertRealSecrets(deps.env);
  const app = new Hono<AppEnv>();

  // The operator API keeps middleware (admission, then the session guard inside adminRoutes).
  app.use('/api/admin/*', async (c, next) => {
    await admit(c, deps);
    await next();
  });

  const routes = app
    .get('/api/health', async (c) => {
      // Answers within about 50 ms whatever the database does: 'degraded' while it refuses writes
      // (another process holds its lock), 'down' while it cannot be reached; both 503, which is
      // what a load balancer takes out of rotation.
      const db = await dbHealth(deps.db);
      if (db === 'up') return c.json({ ok: true, db });
      return c.json({ ok: false, db }, 503, { 'Retry-After': String(DB_RETRY_AFTER_S) });
    })
    .route('/api/admin', adminRoutes)
    .route('/api/submissions', submissionRoutes(deps))
    .route('/api/newsletter', newsletterRoutes(deps))
    .route('/api/reports', reportRoutes(deps))
    .route('/api/contact', contactRoutes(deps))
    .route('/api/events', eventRoutes(deps))
    .route('/api/servers', serverRoutes(deps))
    .route('/go', goRoutes(deps));

  // 405 for a path some route serves with other methods (what hono/method-not-allowed does,
  // answered from notFound so that it adds no middleware to the routes that do match).
  let methodsByPath: TrieRouter<string[]> | undefined;
  const allowedMethods = (path: string): string[] => {
    if (!methodsByPath) {
      const byPath = new Map<string, Set<string>>();
      for (const route of app.routes) {
        if (route.method === 'ALL' || route.method === 'HEAD') continue;
        const methods = byPath.get(route.path) ?? new Set<string>();
        methods.add(route.method);
        if (route.method === 'GET') methods.add('HEAD');
        byPath.set(route.path, methods);
      }
      methodsByPath = new TrieRouter<string[]>();
      for (const [p, methods] of byPath) methodsByPath.add('ALL', p, [...methods]);
    }
    const allowed = new Set<string>();
    for (const [methods] of methodsByPath.match('ALL', path)[0]) for (const m of methods) allowed.add(m);
    return [...allowed];
  };

  app.notFound(async (c) => {
    if (c.req.path.startsWith('/api/')) {
      const methods = allowedMethods(c.req.path);
      if (methods.length > 0 && !methods.includes(c.req.method)) {
        return secureJson(errorJson('method_not_allowed', `Use ${methods.join(', ')}`), 405, {
          Allow: methods.join(', '),
        });
      }
      return secureJson(errorJson('not_found', `No route for ${c.req.method} ${c.req.path}`), 404);
    }
    return (await deps.staticSite?.(c)) ?? c.text('Not found', 404);
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) return apiErrorAnswer(err);
    if (err instanceof HTTPException) {
      return secureJson(errorJson('http_error', err.message || 'Request failed'), err.status);
    }
    const requestId = requestIdOf(c);
    if (isDbUnavailable(err)) {
      console.error(`[${requestId}] database unavailable:`, err);
      return secureJson(
        errorJson('db_unavailable', 'The service is temporarily unavailable. Please try again shortly.'),
        503,
        { 'Retry-After': String(DB_RETRY_AFTER_S) },
      );
    }
    console.error(`[${requestId}] unexpected error:`, err);
    return secureJson(errorJson('internal_error', `Something went wrong (request ${requestId})`), 500);
  });

  const secure = secureAnswers(deps.contentSecurityPolicy);
  // API and console answers are never stored by a browser or a cache: JSON ones carry no-store
  // from the API header set, and this covers the rest (form redirects, text, the console page).
  const securePrivate = (res: Response) => withNoStore(secure(res));
  const dispatch = routes.fetch;
  // app.request() (the tests) goes through fetch too.
  routes.fetch = (request, env, ctx) => {
    // A declared length over the limit is refused from the header alone, before any route runs;
    // bodies without one (chunked) are counted as readBody reads them.
    const length = request.headers.get('content-length');
    if (length !== null && Number.parseInt(length, 10) > BODY_LIMIT_BYTES && isApiUrl(request.url)) {
      return apiErrorAnswer(payloadTooLarge());
    }
    const res = dispatch(request, env, ctx);
    const finish = isPrivateUrl(request.url) ? securePrivate : secure;
    return res instanceof Promise ? res.then(finish) : finish(res);
  };

  return routes;
}

/** The app's type, for `hc<AppType>` in the islands. */
export type AppType = ReturnType<typeof createApp>;
