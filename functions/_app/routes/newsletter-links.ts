import { Hono } from 'hono';
import { confirmSubscriber, unsubscribeEmail } from '../../../db/queries/newsletter';
import { SITE_NAME } from '../../../src/lib/enums';
import type { AppDeps, AppEnv } from '../context';
import { escapeHtml } from '../lib/html';
import { RATE_LIMITS } from '../lib/rate-limits';
import { verifyConfirmToken, verifyUnsubscribeToken } from '../lib/unsubscribe';
import { newsletterWelcomeMail } from '../mail/newsletter-welcome';
import { mailSite, newsletterLinks } from '../mail/site';
import { rateLimit } from '../middleware/rate-limit';

/** A minimal page for the links of the newsletter's mails; no script, so the CSP needs no hash for it. */
export const linkPage = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} | ${SITE_NAME}</title></head><body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="/">Back to ${SITE_NAME}</a></p></main></body></html>`;

const invalid = (what: string) =>
  linkPage('Invalid link', `<p>This ${escapeHtml(what)} link is invalid or has been altered.</p>`);

/** The token of a link: from its query string (where the mails put it), at most 512 characters. */
const tokenOf = (c: import('hono').Context) => {
  const token = c.req.query('token') ?? '';
  return token.length <= 512 ? token : '';
};

/** A page with one button that POSTs back to the same link (mail scanners follow links, never buttons). */
const buttonPage = (title: string, text: string, action: string, button: string, field = '') =>
  linkPage(
    title,
    `<p>${text}</p><form method="post" action="${escapeHtml(action)}">${field}<button type="submit">${escapeHtml(button)}</button></form>`,
  );

/**
 * `/unsubscribe?token=…`, the address in every newsletter mail's body and List-Unsubscribe header
 * (RFC 8058): a GET shows a page with one button, so a link scanner unsubscribes nobody; a POST
 * (the button, or a mail client's one-click `List-Unsubscribe=One-Click`) unsubscribes at once.
 * Outside /api: a mail provider's one-click POST carries no Origin, and the signed token is the proof.
 */
export const unsubscribeLinkRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .get('/', rateLimit(RATE_LIMITS.unsubscribe), async (c) => {
      c.header('Cache-Control', 'no-store');
      const token = tokenOf(c);
      const email = await verifyUnsubscribeToken(deps.env.SESSION_SECRET, token);
      if (!email) return c.html(invalid('unsubscribe'), 400);
      return c.html(
        buttonPage(
          'Unsubscribe from the newsletter',
          `Stop the weekly premium-server picks for <strong>${escapeHtml(email)}</strong>?`,
          `/unsubscribe?token=${encodeURIComponent(token)}`,
          'Unsubscribe',
          // The same body as a mail client's one-click POST (RFC 8058).
          '<input type="hidden" name="List-Unsubscribe" value="One-Click">',
        ),
      );
    })
    // No rate limit on the one-click POST: mail providers send them from a few addresses for all
    // their users, and only a valid signed token (HMAC, not guessable) reaches the database.
    .post('/', async (c) => {
      c.header('Cache-Control', 'no-store');
      const email = await verifyUnsubscribeToken(deps.env.SESSION_SECRET, tokenOf(c));
      if (!email) return c.html(invalid('unsubscribe'), 400);
      const subscriber = await unsubscribeEmail(deps.db, email);
      if (!subscriber) return c.html(linkPage('Not subscribed', '<p>This address is not on the list.</p>'), 404);
      return c.html(
        linkPage(
          'You are unsubscribed',
          `<p><strong>${escapeHtml(email)}</strong> will get no more newsletters. Changed your mind? Sign up again on the <a href="/#newsletter">home page</a>.</p>`,
        ),
      );
    });

/** A confirmation link older than 7 days: a new signup sends a new one. */
const expiredPage = () =>
  linkPage(
    'This link has expired',
    '<p>Confirmation links work for 7 days. To subscribe, sign up again on the <a href="/#newsletter">home page</a>: we send a new link.</p>',
  );

/**
 * `/newsletter/confirm?token=…`, the link of the confirmation mail (double opt-in): a GET shows one
 * button; its POST makes the pending subscriber active and writes the welcome mail in the same batch.
 */
export const confirmLinkRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>()
    .use(rateLimit(RATE_LIMITS.unsubscribe))
    .get('/', async (c) => {
      c.header('Cache-Control', 'no-store');
      const token = tokenOf(c);
      const email = await verifyConfirmToken(deps.env.SESSION_SECRET, token, deps.now?.() ?? Date.now());
      if (email === 'expired') return c.html(expiredPage(), 410);
      if (!email) return c.html(invalid('confirmation'), 400);
      return c.html(
        buttonPage(
          'Confirm your subscription',
          `Send the weekly premium-server picks to <strong>${escapeHtml(email)}</strong>?`,
          `/newsletter/confirm?token=${encodeURIComponent(token)}`,
          'Confirm my subscription',
        ),
      );
    })
    .post('/', async (c) => {
      c.header('Cache-Control', 'no-store');
      const email = await verifyConfirmToken(deps.env.SESSION_SECRET, tokenOf(c), deps.now?.() ?? Date.now());
      if (email === 'expired') return c.html(expiredPage(), 410);
      if (!email) return c.html(invalid('confirmation'), 400);
      const links = await newsletterLinks(deps.env, email);
      const welcome = newsletterWelcomeMail(mailSite(deps.env), { unsubscribeUrl: links.unsubscribeUrl });
      const result = await confirmSubscriber(deps.db, email, { mail: welcome, headers: links.headers });
      const who = `<strong>${escapeHtml(email)}</strong>`;
      switch (result) {
        case 'confirmed':
          return c.html(
            linkPage(
              'You are subscribed',
              `<p>${who} will get the weekly premium-server picks. Every issue has a one-click unsubscribe link.</p>`,
            ),
          );
        case 'already_active':
          return c.html(linkPage('Already confirmed', `<p>${who} is already subscribed.</p>`));
        case 'unsubscribed':
          return c.html(
            linkPage(
              'Unsubscribed',
              `<p>${who} unsubscribed after this link was sent. To subscribe again, sign up on the <a href="/#newsletter">home page</a>.</p>`,
            ),
            409,
          );
        default:
          return c.html(linkPage('Not subscribed', '<p>This address is not on the list.</p>'), 404);
      }
    });
