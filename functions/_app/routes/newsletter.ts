import { Hono } from 'hono';
import { insertInteractions } from '../../../db/queries/interactions';
import { signUpEmail, unsubscribeEmail } from '../../../db/queries/newsletter';
import { conversionValue } from '../../../src/lib/enums';
import { NEWSLETTER_LABELS } from '../../../src/lib/schemas/labels';
import { newsletterSchema, unsubscribeSchema } from '../../../src/lib/schemas/newsletter';
import type { AppDeps, AppEnv } from '../context';
import { ApiError } from '../lib/errors';
import { publicForm } from '../lib/form-redirect';
import { escapeHtml } from '../lib/html';
import { RATE_LIMITS } from '../lib/rate-limits';
import { verifyUnsubscribeToken } from '../lib/unsubscribe';
import { body } from '../lib/validate';
import { newsletterConfirmMail } from '../mail/newsletter-confirm';
import { mailSite, newsletterLinks } from '../mail/site';
import { rateLimit } from '../middleware/rate-limit';
import { turnstile } from '../middleware/turnstile';

/** A minimal page for the email-link path; no script, so the CSP needs no hash for it. */
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} | GuildRank</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="/">Back to GuildRank</a></p></main></body></html>`;

const badToken = () =>
  new ApiError(400, 'invalid_token', 'This unsubscribe link is invalid or has been altered.', [
    { path: 'token', message: 'Invalid token' },
  ]);

/**
 * `POST /api/newsletter` (signup, double opt-in: a pending subscriber and the confirmation mail;
 * the links of the mails are routes/newsletter-links.ts), `POST /api/newsletter/unsubscribe` (signed token) and
 * `GET /api/newsletter/unsubscribe?token=` (the confirmation page an email link opens).
 */
export const newsletterRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .post(
      '/',
      // A refused post without JavaScript gets the home page with the box's message, or where no
      // page can be read, the home page's newsletter state.
      publicForm({
        path: '/',
        action: '/api/newsletter',
        labels: NEWSLETTER_LABELS,
        summary: 'message',
        fallback: (code) => `/?newsletter=${code === 'already_subscribed' ? code : 'invalid'}#newsletter`,
      }),
      rateLimit(RATE_LIMITS.newsletter),
      body(newsletterSchema, { labels: NEWSLETTER_LABELS, forms: true }),
      turnstile(deps),
      async (c) => {
        // Double opt-in (#16): the confirmation mail is written with the pending subscriber.
        const email = c.req.valid('json').email;
        const links = await newsletterLinks(deps.env, email, deps.now?.() ?? Date.now());
        const confirmation = newsletterConfirmMail(mailSite(deps.env), links);
        const result = await signUpEmail(
          deps.db,
          email,
          { mail: confirmation, headers: links.headers },
          deps.now?.() ?? Date.now(),
        );
        if (!result.ok) {
          throw new ApiError(409, 'already_subscribed', result.message, [{ path: 'email', message: result.message }]);
        }
        // One signup event per address joining (not per re-sent confirmation).
        if (result.state !== 'pending_again') {
          try {
            await insertInteractions(deps.db, {
              interaction_type: 'signup',
              target_type: 'newsletter',
              target_id: String(result.subscriber.id),
              metadata: { source: 'homepage' },
              user_agent: c.req.header('user-agent')?.slice(0, 256) ?? null,
              ip_address: c.get('ipHash'),
              conversion_value: conversionValue('signup', 'newsletter'),
            });
          } catch (err) {
            // Tracking errors are logged and swallowed; the signup itself stands.
            console.warn(`[${c.get('requestId')}] newsletter signup not tracked:`, err);
          }
        }
        if (c.get('body')?.kind === 'form') return c.redirect('/newsletter/subscribed', 303);
        const { id, status } = result.subscriber;
        return c.json({ subscriber: { id, email, status }, confirmation: 'sent' as const }, 201);
      },
    )
    .use('/unsubscribe', rateLimit(RATE_LIMITS.unsubscribe))
    .get('/unsubscribe', async (c) => {
      const token = c.req.query('token') ?? '';
      const email = token.length <= 512 ? await verifyUnsubscribeToken(deps.env.SESSION_SECRET, token) : null;
      c.header('Cache-Control', 'no-store');
      if (!email) {
        return c.html(page('Invalid link', '<p>This unsubscribe link is invalid or has been altered.</p>'), 400);
      }
      // A GET only confirms: mail scanners follow links, so the change needs the button's POST.
      return c.html(
        page(
          'Unsubscribe from the newsletter',
          `<p>Stop the weekly premium-server picks for <strong>${escapeHtml(email)}</strong>?</p><form method="post" action="/api/newsletter/unsubscribe"><input type="hidden" name="token" value="${escapeHtml(token)}"><button type="submit">Unsubscribe</button></form>`,
        ),
      );
    })
    .post('/unsubscribe', body(unsubscribeSchema, { forms: true }), async (c) => {
      const { token } = c.req.valid('json');
      const kind = c.get('body')?.kind;
      const email = await verifyUnsubscribeToken(deps.env.SESSION_SECRET, token);
      if (!email) {
        if (kind === 'form') {
          return c.html(page('Invalid link', '<p>This unsubscribe link is invalid or has been altered.</p>'), 400);
        }
        throw badToken();
      }
      const subscriber = await unsubscribeEmail(deps.db, email);
      if (!subscriber) {
        if (kind === 'form') return c.html(page('Not subscribed', '<p>This address is not on the list.</p>'), 404);
        throw new ApiError(404, 'not_found', 'No subscriber with this email');
      }
      if (kind === 'form') {
        return c.html(
          page('You are unsubscribed', `<p><strong>${escapeHtml(email)}</strong> will get no more newsletters.</p>`),
        );
      }
      return c.json({ subscriber }, 200);
    });
