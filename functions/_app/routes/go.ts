import { Hono } from 'hono';
import { insertInteractions } from '../../../db/queries/interactions';
import { getJoinTarget } from '../../../db/queries/outbound';
import { conversionValue, PREMIUM_CTA_PLACES, type PremiumCtaPlace } from '../../../src/lib/enums';
import { joinTarget } from '../../../src/lib/invite';
import { sessionIdParam } from '../../../src/lib/schemas/interaction';
import type { AppDeps, AppEnv } from '../context';
import { RATE_LIMITS } from '../lib/rate-limits';
import { rateLimit } from '../middleware/rate-limit';

/**
 * The tab's analytics session id a site link carries (`?s=`, added by site-client as the link is
 * followed), or null: a malformed one is dropped, never a reason to keep the visitor from the server.
 */
export function linkSessionId(value: string | undefined): string | null {
  return sessionIdParam.safeParse(value).success ? (value as string) : null;
}

/**
 * `GET /go/:slug`: the Join button (no JavaScript needed); 302 to an active server's link,
 * recorded once, here, as the join click, worth 1 (5 premium or sponsored).
 * `GET /go/cta/premium`: the premium call to action, recorded here too (10).
 */
export const goRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .use(rateLimit(RATE_LIMITS.go))
    /**
     * `GET /go/cta/premium?from=help|submit|listing`: the premium call to action, recorded here
     * once as the premium call-to-action click (worth 10), then a 303 to the contact form
     * with the Premium subject picked; the message sent from there is the conversion. Under /go
     * (two segments, so never a server's slug): robots keep out, the Worker runs it first, and
     * the join rate limit covers it.
     */
    .get('/cta/premium', async (c) => {
      const from = c.req.query('from');
      const place = PREMIUM_CTA_PLACES.includes(from as PremiumCtaPlace) ? (from as PremiumCtaPlace) : null;
      try {
        await insertInteractions(deps.db, {
          interaction_type: 'click',
          target_type: 'premium_cta',
          target_id: place,
          metadata: { action: 'premium_cta' },
          session_id: linkSessionId(c.req.query('s')),
          user_agent: c.req.header('user-agent')?.slice(0, 256) ?? null,
          ip_address: c.get('ipHash'),
          referrer: c.req.header('referer')?.slice(0, 2048) ?? null,
          conversion_value: conversionValue('click', 'premium_cta'),
        });
      } catch (err) {
        console.warn(`[${c.get('requestId')}] premium call to action not recorded:`, err);
      }
      c.header('Cache-Control', 'no-store');
      return c.redirect('/contact?subject=premium', 303);
    })
    .get('/:slug', async (c) => {
      const slug = c.req.param('slug').trim().toLowerCase();
      const server = slug.length <= 100 ? await getJoinTarget(deps.db, slug) : null;
      const target = joinTarget(server?.affiliate_link);
      if (!server || !target) {
        const page = await deps.staticSite?.(c);
        if (page) {
          const res = new Response(page.body, { status: 404, headers: page.headers });
          res.headers.set('Cache-Control', 'no-store');
          return res;
        }
        return c.text('Server not found', 404, { 'Cache-Control': 'no-store' });
      }
      try {
        await insertInteractions(deps.db, {
          interaction_type: 'click',
          target_type: 'server',
          target_id: server.slug,
          server_id: server.id,
          // A join through the card other sites embed (/embed/{slug}, #33) says so: ?from=embed.
          metadata: c.req.query('from') === 'embed' ? { action: 'join', source: 'embed' } : { action: 'join' },
          session_id: linkSessionId(c.req.query('s')),
          user_agent: c.req.header('user-agent')?.slice(0, 256) ?? null,
          ip_address: c.get('ipHash'),
          referrer: c.req.header('referer')?.slice(0, 2048) ?? null,
          conversion_value: conversionValue('click', 'server', server.is_premium || server.is_sponsored),
        });
      } catch (err) {
        // Tracking errors are logged and swallowed: the visitor still gets to the server.
        console.warn(`[${c.get('requestId')}] join click not recorded:`, err);
      }
      c.header('Cache-Control', 'no-store');
      return c.redirect(target, 302);
    });
