import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { type AppDeps, type AppEnv, requestIdOf } from './context';
import { ApiError, type ErrorBody, isDbUnavailable } from './lib/errors';
import { cachedIpHash, hashIp } from './lib/hash';
import { BODY_LIMIT_BYTES, nodeBody, payloadTooLarge } from './lib/validate';
import { secureJson, securityHeaders } from './middleware/security-headers';
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

/**
 * Builds the one Hono app behind every runtime: the Node server (`npm start`), the
 * Cloudflare entry and the tests each pass their own database and settings.
 */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.use(securityHeaders(deps.scriptHashes));
  app.use(async (c, next) => {
    c.set('deps', deps);
    const ip = deps.clientIp?.(c.req.raw, c.env) ?? c.req.header('cf-connecting-ip') ?? '0.0.0.0';
    // A returning visitor's hash is memoized: no await (and no extra microtask turn) for it.
    const secret = deps.env.IP_HASH_SECRET;
    c.set('ipHash', cachedIpHash(secret, ip) ?? (await hashIp(secret, ip)));
    await next();
  });
  const limitStreamedBody = bodyLimit({
    maxSize: BODY_LIMIT_BYTES,
    onError: () => {
      throw payloadTooLarge();
    },
  });
  app.use('/api/*', (c, next) => {
    // A declared length is checked from the header alone: touching the body stream here
    // (as bodyLimit does) halves the Node server's throughput. Chunked bodies are counted.
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number.parseInt(length, 10) > BODY_LIMIT_BYTES) throw payloadTooLarge();
      return next();
    }
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    // On Node readBody reads the raw request stream and counts the bytes itself.
    if (nodeBody(c)) return next();
    return limitStreamedBody(c, next);
  });

  const routes = app
    .get('/api/health', async (c) => {
      try {
        await deps.db.run(sql`SELECT 1`);
        return c.json({ ok: true, db: 'up' as const });
      } catch {
        return c.json({ ok: false, db: 'down' as const }, 503, { 'Retry-After': String(DB_RETRY_AFTER_S) });
      }
    })
    .route('/api/admin', adminRoutes)
    .route('/api/submissions', submissionRoutes)
    .route('/api/newsletter', newsletterRoutes)
    .route('/api/reports', reportRoutes)
    .route('/api/contact', contactRoutes)
    .route('/api/events', eventRoutes)
    .route('/api/servers', serverRoutes)
    .route('/go', goRoutes);

  app.use(
    '/api/*',
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        c.json(errorJson('method_not_allowed', `Use ${methods.join(', ')}`), 405, { Allow: methods.join(', ') }),
    }),
  );

  app.notFound(async (c) => {
    if (c.req.path.startsWith('/api/')) {
      return secureJson(c, errorJson('not_found', `No route for ${c.req.method} ${c.req.path}`), 404);
    }
    return (await deps.staticSite?.(c)) ?? c.text('Not found', 404);
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      return secureJson(c, errorJson(err.code, err.message, err.issues), err.status, err.headers);
    }
    if (err instanceof HTTPException) {
      return secureJson(c, errorJson('http_error', err.message || 'Request failed'), err.status);
    }
    const requestId = requestIdOf(c);
    if (isDbUnavailable(err)) {
      console.error(`[${requestId}] database unavailable:`, err);
      return secureJson(
        c,
        errorJson('db_unavailable', 'The service is temporarily unavailable. Please try again shortly.'),
        503,
        {
          'Retry-After': String(DB_RETRY_AFTER_S),
        },
      );
    }
    console.error(`[${requestId}] unexpected error:`, err);
    return secureJson(c, errorJson('internal_error', `Something went wrong (request ${requestId})`), 500);
  });

  return routes;
}

/** The app's type, for `hc<AppType>` in the islands. */
export type AppType = ReturnType<typeof createApp>;
