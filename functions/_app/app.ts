import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { requestId } from 'hono/request-id';
import { dbHealth } from '../../db/queries/health';
import type { AppDeps, AppEnv } from './context';
import { assertRealSecrets } from './env';
import { ApiError, envelope, errorAnswer } from './lib/errors';
import { formFailure } from './lib/form-redirect';
import { BODY_LIMIT_BYTES, payloadTooLarge } from './lib/validate';
import { bodyLimit } from './middleware/body-limit';
import { clientContext } from './middleware/client';
import { originCheck } from './middleware/origin-check';
import { securityHeaders } from './middleware/security-headers';
import { accountRoutes } from './routes/account';
import { adminRoutes } from './routes/admin';
import { badgeRoutes, embedRoutes } from './routes/badges';
import { contactRoutes } from './routes/contact';
import { eventRoutes } from './routes/events';
import { goRoutes } from './routes/go';
import { inviteRoutes } from './routes/invites';
import { moderationRoutes } from './routes/moderation';
import { newsletterRoutes } from './routes/newsletter';
import { confirmLinkRoutes, unsubscribeLinkRoutes } from './routes/newsletter-links';
import { reportRoutes } from './routes/reports';
import { reviewRoutes } from './routes/reviews';
import { serverRoutes } from './routes/servers';
import { sitemapRoutes } from './routes/sitemap';
import { submissionRoutes } from './routes/submissions';
import { v1Routes } from './routes/v1';
import { stripeWebhookRoutes } from './routes/webhooks/stripe';

/**
 * What the app serves outside /api, mounted after it: the tracked Join links, the badges and the
 * embeddable card (#33) for owners' READMEs and sites, the sitemap from the database (#18:
 * /sitemap-index.xml and its files), and the links of the newsletter's mails (#16: outside /api,
 * since a one-click POST comes from a mail client). Links and images, not an API: no client calls
 * them through `hc`, so they stay out of AppType.
 */
const LINK_ROUTES = [
  ['/go', goRoutes],
  ['/badge', badgeRoutes],
  ['/embed', embedRoutes],
  ['/', sitemapRoutes],
  ['/unsubscribe', unsubscribeLinkRoutes],
  ['/newsletter/confirm', confirmLinkRoutes],
] as const;

/** Seconds a client should wait before retrying while the database is away. */
const DB_RETRY_AFTER_S = 5;

/**
 * Builds the one Hono app behind every runtime: the Node server (`npm start`), the Worker and
 * the tests each pass their own database and settings. Middleware, in order: a request id,
 * the security headers (hono/secure-headers, the set picked by the answer), `no-store` on
 * every API and console answer, the deps and the client's IP hash; then for /api the body limit
 * (hono/body-limit, asked only when the size is not declared) and the one origin check. Each resource is one chained module under
 * routes/; `app.onError` gives the one error envelope.
 */
export function createApp(deps: AppDeps) {
  assertRealSecrets(deps.env);

  const root = new Hono<AppEnv>();
  const app = root
    .use(requestId())
    .use(securityHeaders(deps.contentSecurityPolicy))
    .use('/api/*', noStore)
    .use('/admin/*', noStore)
    .use(clientContext(deps))
    // Stripe's signed events (#30): their own body limit, and no origin check (a server, not a browser, posts them).
    .route('/api/webhooks/stripe', stripeWebhookRoutes(deps))
    .use(
      '/api/*',
      bodyLimit({
        maxSize: BODY_LIMIT_BYTES,
        onError: () => {
          throw payloadTooLarge();
        },
      }),
    )
    .use('/api/*', originCheck(deps.env.SITE_URL))
    // 405 with Allow for a path some route serves with other methods (hono/method-not-allowed
    // turns the not-found answer into it), in the one error envelope.
    .use(
      '/api/*',
      methodNotAllowed({
        app: root,
        onMethodNotAllowed: (c, methods) =>
          c.json(envelope('method_not_allowed', `Use ${methods.join(', ')}`), 405, { Allow: methods.join(', ') }),
      }),
    );

  const routes = app
    .get('/api/health', async (c) => {
      // Answers within about 50 ms whatever the database does: 'degraded' while it refuses writes
      // (another process holds its lock), 'down' while it cannot be reached; both 503, which is
      // what a load balancer takes out of rotation.
      const db = await dbHealth(deps.db);
      if (db === 'up') return c.json({ ok: true as const, db }, 200);
      return c.json({ ok: false as const, db }, 503, { 'Retry-After': String(DB_RETRY_AFTER_S) });
    })
    .route('/api/admin', adminRoutes)
    .route('/api/account', accountRoutes(deps))
    .route('/api/submissions', submissionRoutes(deps))
    .route('/api/invites', inviteRoutes(deps))
    .route('/api/moderation', moderationRoutes(deps))
    .route('/api/newsletter', newsletterRoutes(deps))
    .route('/api/reports', reportRoutes(deps))
    .route('/api/reviews', reviewRoutes(deps))
    .route('/api/contact', contactRoutes(deps))
    .route('/api/events', eventRoutes(deps))
    .route('/api/servers', serverRoutes(deps))
    // The public read API (#33): documented at /api/v1/openapi.json and /developers.
    .route('/api/v1', v1Routes);

  for (const [path, linkRoutes] of LINK_ROUTES) app.route(path, linkRoutes(deps));

  app.notFound(async (c) => {
    if (c.req.path.startsWith('/api/')) {
      return c.json(envelope('not_found', `No route for ${c.req.method} ${c.req.path}`), 404);
    }
    return (await deps.staticSite?.(c)) ?? c.text('Not found', 404);
  });

  app.onError(async (err, c) => {
    // A refused form post from a browser without JavaScript gets its form's page back, filled in.
    const page = err instanceof ApiError ? await formFailure(c, err) : undefined;
    if (page) return page;
    const { status, body, headers } = errorAnswer(err, c.get('requestId'));
    return c.json(body, status, headers);
  });

  return routes;
}

/** The app's type, for `hc<AppType>` in the islands and the console (type-only imports). */
export type AppType = ReturnType<typeof createApp>;

/**
 * API and console answers are never stored by a browser or a shared cache (some hold personal
 * data); a handler that chose its own caching (the public listing read) keeps it. Set on the
 * answer's own headers, as hono/secure-headers does: `c.header()` after `next()` rebuilds the
 * finished answer around its body as a stream, which on @hono/node-server turns its lightweight
 * Response into a real one written through a stream reader. Only an answer whose headers are
 * immutable (one fetched from the Worker's assets binding) takes that copy.
 */
const noStore = createMiddleware(async (c, next) => {
  await next();
  if (c.res.headers.has('cache-control')) return;
  try {
    c.res.headers.set('Cache-Control', 'no-store');
  } catch {
    c.header('Cache-Control', 'no-store');
  }
});
