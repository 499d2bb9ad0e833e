import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import { type EditChanges, saveListingEdit } from '../../../db/queries/listing-edits';
import {
  createOwnerSession,
  deleteOwner,
  deleteOwnerSession,
  getClaim,
  listingNumbers,
  listOwnerListings,
  recordOwnerAudit,
  replaceListingInvite,
  spendOAuthState,
  syncClaims,
  upsertOwner,
} from '../../../db/queries/owners';
import { deleteServer, getServerById } from '../../../db/queries/servers';
import { subcategoryNames } from '../../../src/lib/categories';
import { applyCheck } from '../../../src/lib/freshness/state';
import { managedGuilds } from '../../../src/lib/owners/proof';
import { SIGN_IN_NOT_CONFIGURED } from '../../../src/lib/owners/sign-in';
import {
  EDITABLE_FIELDS,
  listingEditSchema,
  NUMBER_WINDOWS,
  replaceInviteSchema,
} from '../../../src/lib/schemas/owner';
import { subcategoryMessage } from '../../../src/lib/schemas/submission';
import { discordOAuthFor, SignInFailure } from '../clients/discord-oauth';
import type { AppDeps } from '../context';
import { ApiError } from '../lib/errors';
import { escapeHtml } from '../lib/html';
import { checkInvite } from '../lib/invite-check';
import {
  clearOwnerCookies,
  currentOwner,
  ownerCookieName,
  SIGN_IN_TTL_MS,
  setOwnerCookie,
  setPendingSignIn,
  takePendingSignIn,
} from '../lib/owner-session';
import { RATE_LIMITS } from '../lib/rate-limits';
import { validationHook } from '../lib/validate';
import { type OwnerEnv, ownerAuth } from '../middleware/owner-auth';
import { rateLimit } from '../middleware/rate-limit';
import { linkPage } from './newsletter-links';

/** The `:id` of a listing in an owner path. */
const idParam = zValidator(
  'param',
  z.object({
    id: z
      .string()
      .regex(/^[1-9]\d{0,11}$/, 'Must be a listing id')
      .transform(Number),
  }),
  validationHook,
);

/** Where Discord sends the browser back: this site's callback, on the origin the sign-in started from. */
function redirectUri(siteUrl: string, requestUrl: string): string {
  const site = new URL(siteUrl);
  const request = new URL(requestUrl);
  // The public site's own origin (its scheme, even behind a TLS proxy); a local run on another
  // host or port (tests on 127.0.0.1) comes back where it started. Discord accepts only the
  // redirect URIs registered for the application, so a forged Host gains nothing.
  const origin = request.host === site.host ? site.origin : request.origin;
  return `${origin}/api/account/callback`;
}

/** The account page, with an error code for it to explain (a sign-in refused). */
const accountPage = (error?: string) => (error ? `/account?error=${encodeURIComponent(error)}` : '/account');

/**
 * What a browser gets from the sign-in link when the site has no Discord application: a page that
 * says so (503, not cached), not a silent trip back to /account, whose message needs JavaScript.
 */
const notConfigured = (c: Context) =>
  c.html(
    linkPage(
      'Sign-in is not available',
      `<p>${escapeHtml(SIGN_IN_NOT_CONFIGURED)} Owners cannot sign in here until the site's operators set it up.</p><p><a href="/account">Back to My listings</a></p>`,
    ),
    503,
    { 'Cache-Control': 'no-store' },
  );

/** The 404 of a listing that is not the signed-in owner's (unknown or claimed by someone else alike). */
const notYours = (id: number) => new ApiError(404, 'not_found', `No listing ${id} of yours`);

/**
 * `/api/account`: owner accounts (#17). Sign-in with Discord (OAuth2 code flow with PKCE and state,
 * clients/discord-oauth.ts), which claims every listing whose guild the owner's Discord guild list
 * shows them owning or managing (and releases those it no longer shows); then, behind the owner
 * session (middleware/owner-auth.ts, never the console's): their listings, edits for review, a
 * replaced invite checked with Discord at once, removal, the listing's numbers, and account deletion.
 */
export const accountRoutes = (deps: AppDeps) => {
  const { SITE_URL, SESSION_SECRET } = deps.env;
  const now = () => deps.now?.() ?? Date.now();

  /** The signed-in owner's claimed listing, or the 404. */
  const ownedListing = async (ownerId: number, id: number) => {
    const claim = await getClaim(deps.db, ownerId, id);
    const listing = claim ? await getServerById(deps.db, id) : null;
    if (!listing) throw notYours(id);
    return listing;
  };

  return (
    new Hono<OwnerEnv>()
      // Who is signed in (null when nobody), whether sign-in is configured, and the CSRF token for writes.
      .get('/me', async (c) => {
        const session = await currentOwner(c, deps);
        return c.json({
          configured: discordOAuthFor(deps) !== null,
          owner: session
            ? {
                username: session.owner.username,
                global_name: session.owner.global_name,
                discord_user_id: session.owner.discord_user_id,
              }
            : null,
          csrfToken: session?.csrfToken ?? null,
        });
      })
      // A link (no JavaScript needed): off to Discord with a fresh state and PKCE challenge.
      .get('/sign-in', rateLimit(RATE_LIMITS.ownerSignIn), async (c) => {
        const oauth = discordOAuthFor(deps);
        if (!oauth) return notConfigured(c);
        const uri = redirectUri(SITE_URL, c.req.url);
        const started = await oauth.start(uri);
        await setPendingSignIn(c, SITE_URL, SESSION_SECRET, {
          state: started.state,
          codeVerifier: started.codeVerifier,
          redirectUri: uri,
          startedAt: now(),
        });
        return c.redirect(started.url, 302);
      })
      // Discord's redirect back: the state must match the cookie's; then the user, their guilds, their claims.
      .get('/callback', rateLimit(RATE_LIMITS.ownerSignIn), async (c) => {
        const oauth = discordOAuthFor(deps);
        const pending = await takePendingSignIn(c, SITE_URL, SESSION_SECRET, now());
        if (!oauth) return notConfigured(c);
        if (!pending) return c.redirect(accountPage('state'), 303);
        // A state is good once, recorded here: a replayed pending cookie is refused before Discord is asked.
        if (!(await spendOAuthState(deps.db, pending.state, now(), SIGN_IN_TTL_MS)))
          return c.redirect(accountPage('state'), 303);
        let signedIn: Awaited<ReturnType<typeof oauth.finish>>;
        try {
          signedIn = await oauth.finish(new URL(c.req.url), pending);
        } catch (error) {
          return c.redirect(accountPage(error instanceof SignInFailure ? error.reason : 'discord'), 303);
        }
        const at = now();
        const owner = await upsertOwner(deps.db, signedIn.user, at);
        const managed = managedGuilds(signedIn.guilds);
        await syncClaims(deps.db, owner.id, managed, at);
        // The guilds this sign-in proved are kept with the new session (and as the owner's last list).
        const session = await createOwnerSession(deps.db, owner.id, at, managed);
        setOwnerCookie(c, SITE_URL, session.token);
        return c.redirect(accountPage(), 303);
      })
      // A form post (works without JavaScript) or a JSON call: ends this browser's owner session.
      .post('/sign-out', async (c) => {
        const token = getCookie(c, ownerCookieName(SITE_URL));
        if (token) await deleteOwnerSession(deps.db, token);
        clearOwnerCookies(c, SITE_URL);
        if (/^application\/x-www-form-urlencoded|^multipart\/form-data/i.test(c.req.header('content-type') ?? ''))
          return c.redirect('/account?signed_out=1', 303);
        return c.json({ ok: true as const });
      })
      .use(ownerAuth())
      .get('/listings', async (c) => {
        const { owner } = c.get('ownerSession');
        return c.json(await listOwnerListings(deps.db, owner.id));
      })
      // An edit of description, tags, features, subcategory or links: stored as a diff for review, not applied.
      .post('/listings/:id/edits', idParam, zValidator('json', listingEditSchema, validationHook), async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const input = c.req.valid('json');
        const listing = await ownedListing(owner.id, id);
        if (input.subcategory && !subcategoryNames(listing.category).includes(input.subcategory)) {
          const message = subcategoryMessage(listing.category);
          throw new ApiError(400, 'validation_failed', message, [{ path: 'subcategory', message }]);
        }
        const changes: EditChanges = {};
        for (const field of EDITABLE_FIELDS) {
          const to = input[field];
          if (to === undefined) continue;
          const from = listing[field] ?? null;
          if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = { from, to };
        }
        if (Object.keys(changes).length === 0)
          throw new ApiError(400, 'no_change', 'Nothing changed: edit a field before sending it for review');
        const edit = await saveListingEdit(deps.db, id, owner.id, changes);
        return c.json({ edit }, 201);
      })
      // A new invite, checked with Discord now (the one invite check and budget): it must open this
      // listing's guild and never expire; the check's result, the new link and the audit row are one batch.
      .post('/listings/:id/invite', idParam, zValidator('json', replaceInviteSchema, validationHook), async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const listing = await ownedListing(owner.id, id);
        const { answer, invite } = await checkInvite(deps, c.req.valid('json').invite_link, {
          client: c.get('ipHash'),
          owner: true,
          guildId: listing.guild_id ?? null,
        });
        const affiliateLink = `https://discord.gg/${invite.code}`;
        await replaceListingInvite(deps.db, owner, listing, applyCheck(listing, answer, now()), {
          affiliate_link: affiliateLink,
          invite_code: invite.code,
        });
        deps.rebuild?.request(`owner replaced the invite of ${listing.slug}`, [`/server/${listing.slug}`]);
        return c.json({ listing: { id, affiliate_link: affiliateLink, invite_status: 'ok' as const } });
      })
      // Takes the listing off the directory for good (its page, history and claims go with it).
      .delete('/listings/:id', idParam, async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const listing = await ownedListing(owner.id, id);
        await deleteServer(deps.db, id);
        await recordOwnerAudit(deps.db, owner, {
          action: 'remove',
          entity: 'server',
          entityId: id,
          details: { name: listing.name, slug: listing.slug },
        });
        deps.rebuild?.request(`owner removed ${listing.slug}`, [`/server/${listing.slug}`]);
        return c.json({ ok: true as const });
      })
      // Views, join clicks and conversion for 7, 30 and 90 days; daily figures and the member history.
      .get('/listings/:id/numbers', idParam, async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        await ownedListing(owner.id, id);
        return c.json(await listingNumbers(deps.db, id, NUMBER_WINDOWS, now()));
      })
      // Deletes the account and everything tied to it; the public listings stay, unclaimed.
      .delete('/', async (c) => {
        const { owner } = c.get('ownerSession');
        await deleteOwner(deps.db, owner.id);
        clearOwnerCookies(c, SITE_URL);
        return c.json({ ok: true as const });
      })
  );
};
