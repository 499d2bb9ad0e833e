import { Hono } from 'hono';
import { insertInteractions } from '../../../db/queries/interactions';
import { getJoinTarget } from '../../../db/queries/outbound';
import { conversionValue } from '../../../src/lib/enums';
import { type AppDeps, type AppEnv, requestIdOf } from '../context';
import { admit } from '../lib/request';
import { RATE_LIMITS } from '../middleware/rate-limit';

/** The stored link as an absolute http(s) URL, or null: nothing else is ever a redirect target. */
function safeTarget(link: string | null): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** `GET /go/:slug`: the Join button without JavaScript; 302 to an active server's link, counted as a click. */
export const goRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().get('/:slug', async (c) => {
    const admitted = admit(c, deps, { write: false, limit: RATE_LIMITS.go });
    if (admitted) await admitted;
    const slug = c.req.param('slug').trim().toLowerCase();
    const server = slug.length <= 100 ? await getJoinTarget(deps.db, slug) : null;
    const target = safeTarget(server?.affiliate_link ?? null);
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
        metadata: { action: 'join' },
        user_agent: c.req.header('user-agent')?.slice(0, 256) ?? null,
        ip_address: c.get('ipHash'),
        referrer: c.req.header('referer')?.slice(0, 2048) ?? null,
        conversion_value: conversionValue('click', 'server', server.is_premium || server.is_sponsored),
      });
    } catch (err) {
      // Tracking errors are logged and swallowed (SPEC section 8): the visitor still gets to the server.
      console.warn(`[${requestIdOf(c)}] join click not recorded:`, err);
    }
    c.header('Cache-Control', 'no-store');
    return c.redirect(target, 302);
  });
