import { zValidator } from '@hono/zod-validator';
import { type Context, Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import { AUDITED } from '../../../db/queries/audit';
import { type EditChanges, saveListingEdit } from '../../../db/queries/listing-edits';
import {
  attachSession,
  dropUnstartedOrder,
  getOrder,
  getPlan,
  listingTermEnd,
  listOwnerOrders,
  listPlans,
  openOrder,
  orderBySession,
  ordersHoldingListing,
  takenSlots,
} from '../../../db/queries/orders';
import {
  createOwnerSession,
  deleteAccount,
  deleteOwnerSession,
  getClaim,
  listingNumbers,
  listOwnerListings,
  ownerAuditRowWhen,
  ownerAuthor,
  replaceListingInvite,
  spendOAuthState,
  syncClaims,
  upsertOwner,
} from '../../../db/queries/owners';
import {
  getAccountSettings,
  getReviewTarget,
  getReviewTargetBySlug,
  listAccountReplies,
  listAccountReviews,
  listReviewsOfOwnedListings,
  saveAccountSettings,
  saveReviewProofs,
} from '../../../db/queries/reviews';
import { deleteServer, getServerById } from '../../../db/queries/servers';
import { getOwnerWebhook, setOwnerWebhook } from '../../../db/queries/webhooks';
import { subcategoryNames } from '../../../src/lib/categories';
import type { Placement } from '../../../src/lib/enums';
import { applyCheck } from '../../../src/lib/invite-checks/state';
import { ownerEventPayload } from '../../../src/lib/owners/notifications';
import { managedGuilds } from '../../../src/lib/owners/proof';
import { discordBusyMessage, SIGN_IN_NOT_CONFIGURED } from '../../../src/lib/owners/sign-in';
import { maskedWebhookUrl, parseWebhookUrl, WEBHOOK_URL_MESSAGE } from '../../../src/lib/owners/webhook-url';
import { CHECKOUT_MIN_MS, CHECKOUT_MINUTES, checkoutOutcome } from '../../../src/lib/pricing/checkout';
import { REMOVAL_RACED, removalRefusal } from '../../../src/lib/pricing/order-machine';
import {
  DAY_MS,
  formatPrice,
  formatTerm,
  OWNER_REFUNDABLE_STATES,
  partRefundedWords,
  refundableByOwner,
} from '../../../src/lib/pricing/plans';
import { nextSlotStart } from '../../../src/lib/pricing/slots';
import { checkoutSchema, refundSchema } from '../../../src/lib/schemas/orders';
import {
  EDITABLE_FIELDS,
  listingEditSchema,
  NUMBER_WINDOWS,
  replaceInviteSchema,
  webhookSchema,
} from '../../../src/lib/schemas/owner';
import { accountSettingsSchema } from '../../../src/lib/schemas/review';
import { subcategoryMessage } from '../../../src/lib/schemas/submission';
import { discordOAuthFor, REVIEW_SCOPES, SignInFailure } from '../clients/discord-oauth';
import { discordWebhookFor } from '../clients/discord-webhook';
import { paymentsConfigured, stripeFor } from '../clients/stripe';
import type { AppDeps } from '../context';
import { ApiError } from '../lib/errors';
import { escapeHtml } from '../lib/html';
import { checkInvite, holdDiscordFor, mayAskDiscord } from '../lib/invite-check';
import { applyEvent, refundThroughStripe } from '../lib/order-events';
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
import { type PendingPublish, preparePublish, serverPaths } from '../lib/site-changes';
import { validationHook } from '../lib/validate';
import { type OwnerEnv, ownerAuth } from '../middleware/owner-auth';
import { rateLimit } from '../middleware/rate-limit';
import { linkPage } from './newsletter-links';

/** Why a listing cannot be promoted now, or null: only a live listing with a working join link. */
function promoteRefusal(listing: { is_active: boolean; affiliate_link: string | null; invite_status: string }) {
  if (!listing.is_active) return 'This listing is not live: only listings shown in the directory can be promoted.';
  if (!listing.affiliate_link) return 'This listing has no join link: a paid placement needs one.';
  if (listing.invite_status === 'dead' || listing.invite_status === 'wrong_guild')
    return 'This listing is off the lists until its invite works again.';
  return null;
}

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

/**
 * The origin a browser is sent back to (from Discord's sign-in, from Stripe's checkout): the public
 * site's own origin (its scheme, even behind a TLS proxy); a local run on another host or port
 * (tests on 127.0.0.1) comes back where it started. Discord accepts only the redirect URIs
 * registered for the application, and a checkout starts only from a signed-in owner's page (CSRF
 * token and origin checked), so a forged Host gains nothing.
 */
function returnOrigin(siteUrl: string, requestUrl: string): string {
  const site = new URL(siteUrl);
  const request = new URL(requestUrl);
  return request.host === site.host ? site.origin : request.origin;
}

/** Where Discord sends the browser back: this site's callback, on the origin the sign-in started from. */
const redirectUri = (siteUrl: string, requestUrl: string) =>
  `${returnOrigin(siteUrl, requestUrl)}/api/account/callback`;

/** The account page, with an error code for it to explain (a sign-in refused). */
const accountPage = (error?: string) => (error ? `/account?error=${encodeURIComponent(error)}` : '/account');
/**
 * What a review's sign-in answers while Discord is busy (#31: the breaker is open, or the member
 * read's 429 just tripped it): a page saying so and from when to try again (503 with Retry-After,
 * not cached), with the way back to the server's page; it needs no JavaScript.
 */
const discordBusy = (c: Context, until: number, now: number, slug: string | null) =>
  c.html(
    linkPage(
      'Discord is busy',
      `<p>${escapeHtml(discordBusyMessage(until, now))}</p><p><a href="${slug ? `/server/${escapeHtml(encodeURIComponent(slug))}#write-review` : '/'}">${slug ? 'Back to the server' : 'Back to GuildRank'}</a></p>`,
    ),
    503,
    { 'Cache-Control': 'no-store', 'Retry-After': String(Math.max(1, Math.ceil((until - now) / 1000))) },
  );

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

  /**
   * When a new term bought at `at` for a listing in `category` would start, by placement and term
   * (sponsored slots are capped per category; a term follows the listing's own running or
   * scheduled one of its placement), and what it waits for: the rule the activation applies.
   */
  const termStarts = async (listing: { id: number; category: string }, at: number) => {
    const atIso = new Date(at).toISOString();
    const taken = await takenSlots(deps.db, listing.category, atIso);
    const own = {
      premium: await listingTermEnd(deps.db, listing.id, 'premium', atIso),
      sponsored: await listingTermEnd(deps.db, listing.id, 'sponsored', atIso),
    };
    return (placement: Placement, termDays: number) => {
      const after = Math.max(at, own[placement] ?? 0);
      const start =
        placement === 'sponsored'
          ? nextSlotStart(taken, after, termDays * DAY_MS, deps.env.SPONSORED_SLOTS_PER_CATEGORY)
          : after;
      return {
        start,
        /** Why it would not start now: the listing's own term of that placement, or the category's full slots. */
        waits_for: start <= at ? null : start > after ? ('slots' as const) : ('own' as const),
      };
    };
  };

  /** When each active plan's slot would start for a listing in `category` (sponsored slots are capped per category). */
  const plansFor = async (listing: { id: number; category: string }) => {
    const at = now();
    const startOf = await termStarts(listing, at);
    return (await listPlans(deps.db, { activeOnly: true })).map((p) => {
      const { start, waits_for } = startOf(p.placement, p.term_days);
      return {
        ...p,
        price: formatPrice(p.price_cents, p.currency),
        term: formatTerm(p.term_days),
        starts_at: start > at ? new Date(start).toISOString() : null,
        waits_for,
      };
    });
  };

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
                id: session.owner.id,
                username: session.owner.username,
                global_name: session.owner.global_name,
                discord_user_id: session.owner.discord_user_id,
                // "My listings" shows only to those who claim one (#31: one sign-in for everyone).
                has_listings: (await listOwnerListings(deps.db, session.owner.id)).listings.length > 0,
              }
            : null,
          csrfToken: session?.csrfToken ?? null,
        });
      })
      // A link (no JavaScript needed): off to Discord with a fresh state and PKCE challenge. With
      // `?review={slug}` (#31), the sign-in that starts a review: it also asks guilds.members.read.
      .get('/sign-in', rateLimit(RATE_LIMITS.ownerSignIn), async (c) => {
        const oauth = discordOAuthFor(deps);
        if (!oauth) return notConfigured(c);
        const slug = c.req.query('review');
        const target = slug ? await getReviewTargetBySlug(deps.db, slug) : null;
        if (slug && !target?.guild_id) return c.redirect(`/account?error=${encodeURIComponent('review_target')}`, 303);
        // The membership read (#31) asks Discord as the invite checks do: not while their breaker is
        // open (or the budget is spent), and the page says until when.
        const turn = target ? await mayAskDiscord(deps) : null;
        if (turn && !turn.ok) return discordBusy(c, turn.until, now(), target?.slug ?? null);
        const uri = redirectUri(SITE_URL, c.req.url);
        const started = await oauth.start(uri, target ? REVIEW_SCOPES : undefined);
        await setPendingSignIn(c, SITE_URL, SESSION_SECRET, {
          state: started.state,
          codeVerifier: started.codeVerifier,
          redirectUri: uri,
          startedAt: now(),
          ...(target ? { review: target.id } : {}),
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
        const review = pending.review ? await getReviewTarget(deps.db, pending.review) : null;
        let signedIn: Awaited<ReturnType<typeof oauth.finish>>;
        try {
          signedIn = await oauth.finish(new URL(c.req.url), pending, { memberOf: review?.guild_id ?? undefined });
        } catch (error) {
          // Discord's 429 or block page on the member read trips the breaker every Discord call shares.
          const hold = error instanceof SignInFailure && error.answer ? await holdDiscordFor(deps, error.answer) : null;
          if (hold) return discordBusy(c, hold.until, now(), review?.slug ?? null);
          return c.redirect(accountPage(error instanceof SignInFailure ? error.reason : 'discord'), 303);
        }
        const at = now();
        const owner = await upsertOwner(deps.db, signedIn.user, at);
        const managed = managedGuilds(signedIn.guilds);
        await syncClaims(deps.db, owner.id, managed, at);
        // The guilds this sign-in proved are kept with the new session (and as the owner's last list).
        const session = await createOwnerSession(deps.db, owner.id, at, managed);
        setOwnerCookie(c, SITE_URL, session.token);
        if (review?.guild_id) {
          // A review's sign-in (#31): what Discord said of the membership, checked when the review is sent.
          const guildId = review.guild_id;
          await saveReviewProofs(
            deps.db,
            owner.id,
            guildId,
            {
              member: signedIn.guilds.some((g) => g.id === guildId) && signedIn.member != null,
              role: managed.get(guildId) ?? null,
              joined_at: signedIn.member?.joined_at ?? null,
            },
            at,
          );
          return c.redirect(`/server/${review.slug}#write-review`, 303);
        }
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
      // "My reviews" (#31): the account's reviews and replies, and the reviews of listings it claims.
      .get('/reviews', async (c) => {
        const { owner } = c.get('ownerSession');
        const [reviews, replies, received] = await Promise.all([
          listAccountReviews(deps.db, owner.id),
          listAccountReplies(deps.db, owner.id),
          listReviewsOfOwnedListings(deps.db, owner.id),
        ]);
        return c.json({ reviews, replies, received });
      })
      // Mail settings (#31): the address the site may mail, and whether new reviews are mailed.
      .get('/settings', async (c) => {
        const { owner } = c.get('ownerSession');
        return c.json(await getAccountSettings(deps.db, owner.id));
      })
      .put('/settings', zValidator('json', accountSettingsSchema, validationHook), async (c) => {
        const { owner } = c.get('ownerSession');
        return c.json(await saveAccountSettings(deps.db, owner.id, c.req.valid('json')));
      })
      // The owner's Discord webhook for notices (#32): one of Discord's own URLs, checked before
      // saving by posting a test message to it; removed with DELETE.
      .get('/webhook', async (c) => {
        const { owner } = c.get('ownerSession');
        const hook = await getOwnerWebhook(deps.db, owner.id);
        return c.json({
          webhook: hook ? { url: maskedWebhookUrl(hook.url), disabled_at: hook.disabledAt } : null,
        });
      })
      .put('/webhook', zValidator('json', webhookSchema, validationHook), async (c) => {
        const { owner } = c.get('ownerSession');
        const { webhook_url } = c.req.valid('json');
        const webhook = parseWebhookUrl(webhook_url);
        if (!webhook)
          throw new ApiError(400, 'validation_failed', WEBHOOK_URL_MESSAGE, [
            { path: 'webhook_url', message: WEBHOOK_URL_MESSAGE },
          ]);
        const answer = await discordWebhookFor(deps).post(webhook, ownerEventPayload({ kind: 'test' }));
        if (answer.kind === 'gone') {
          const message = `Discord does not know this webhook (it answered ${answer.status}): copy its URL again from Discord.`;
          throw new ApiError(400, 'webhook_unknown', message, [{ path: 'webhook_url', message }]);
        }
        if (answer.kind === 'retry')
          throw new ApiError(
            503,
            'discord_unavailable',
            'Discord did not take the test message just now. Please try again in a minute.',
          );
        await setOwnerWebhook(deps.db, owner.id, webhook_url.trim());
        return c.json({ webhook: { url: maskedWebhookUrl(webhook_url.trim()), disabled_at: null } });
      })
      .delete('/webhook', async (c) => {
        const { owner } = c.get('ownerSession');
        await setOwnerWebhook(deps.db, owner.id, null);
        return c.json({ webhook: null });
      })
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
          category: listing.category,
        });
        const affiliateLink = `https://discord.gg/${invite.code}`;
        const reason = `owner replaced the invite of ${listing.slug}`;
        const change = preparePublish(deps.rebuild, deps.db, reason, serverPaths([listing.slug]));
        await replaceListingInvite(
          deps.db,
          owner,
          listing,
          applyCheck(listing, answer, now()),
          { affiliate_link: affiliateLink, invite_code: invite.code },
          change.statements,
        );
        await change.requested();
        return c.json({ listing: { id, affiliate_link: affiliateLink, invite_status: 'ok' as const } });
      })
      // Takes the listing off the directory for good (its page, history and claims go with it).
      .delete('/listings/:id', idParam, async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const listing = await ownedListing(owner.id, id);
        const reason = `owner removed ${listing.slug}`;
        // The removal's record, written only with the removal and its audit row (AUDITED).
        const change = preparePublish(deps.rebuild, deps.db, reason, serverPaths([listing.slug]), AUDITED);
        // Not while one of its orders may still hold the owner's money (its orders outlive it, set null).
        const removal = await deleteServer(deps.db, id, {
          author: ownerAuthor(owner),
          action: 'remove',
          details: { owner_id: owner.id, name: listing.name, slug: listing.slug },
          publish: change.statements,
        });
        if (removal === 'held') {
          const refusal = removalRefusal(await ordersHoldingListing(deps.db, id), 'owner');
          throw new ApiError(409, 'placement_open', refusal ?? REMOVAL_RACED);
        }
        if (removal === 'missing') throw new ApiError(404, 'not_found', `No listing ${id}`);
        await change.requested();
        return c.json({ ok: true as const });
      })
      // Views, join clicks and conversion for 7, 30 and 90 days; daily figures and the member history.
      .get('/listings/:id/numbers', idParam, async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        await ownedListing(owner.id, id);
        return c.json(await listingNumbers(deps.db, id, NUMBER_WINDOWS, now()));
      })
      // Paid placement (#30): the owner's orders, with whether each can still be refunded here.
      .get('/orders', async (c) => {
        const { owner } = c.get('ownerSession');
        const at = now();
        const orders = (await listOwnerOrders(deps.db, owner.id)).map((o) => ({
          id: o.id,
          server_id: o.server_id,
          server_name: o.server_name,
          server_slug: o.server_slug,
          placement: o.placement,
          state: o.state,
          amount: formatPrice(o.amount_cents, o.currency),
          term: formatTerm(o.term_days),
          paid_at: o.paid_at,
          starts_at: o.starts_at,
          ends_at: o.ends_at,
          refunded_at: o.refunded_at,
          // A partial refund (Stripe's dashboard) leaves the order paid or ended: how much came back.
          refunded_part: partRefundedWords(o.refunded_cents, o.amount_cents, o.currency),
          // The way back to Stripe's page only while it still takes payment (its expiry passed: the
          // webhook saying so, or the reconcile job, closes the order soon).
          checkout_url:
            o.state === 'open' && o.checkout_expires_at && Date.parse(o.checkout_expires_at) > at
              ? o.checkout_url
              : null,
          refundable:
            o.kind === 'checkout' &&
            OWNER_REFUNDABLE_STATES.includes(o.state) &&
            Boolean(o.stripe_payment_intent) &&
            refundableByOwner(o.paid_at, at),
        }));
        return c.json({ orders, payments: paymentsConfigured(deps.env) });
      })
      // Where a checkout the owner came back from stands (/account/paid): from the order, and while it
      // is open from Stripe's session (a bank debit still clearing is not a payment received).
      .get('/checkouts/:session', rateLimit(RATE_LIMITS.checkoutStatus), async (c) => {
        const { owner } = c.get('ownerSession');
        const sessionId = c.req.param('session');
        const order = /^cs_\w{1,200}$/.test(sessionId) ? await orderBySession(deps.db, sessionId) : null;
        if (!order || order.owner_id !== owner.id) throw new ApiError(404, 'not_found', 'No checkout of yours');
        let session = null;
        if (order.state === 'open') {
          const stripe = stripeFor(deps);
          session = stripe ? await stripe.retrieveSession(sessionId).catch(() => null) : null;
        }
        const at = now();
        const outcome = checkoutOutcome(order, session, at);
        let { starts_at, ends_at } = order;
        if ((outcome === 'confirming' || outcome === 'processing') && order.server_id !== null) {
          // Paid or paying, not activated yet: a term that follows the listing's own one (or waits
          // for a slot) has those dates, not a start on the event's arrival (null: it starts then).
          const startOf = await termStarts({ id: order.server_id, category: order.category }, at);
          const { start } = startOf(order.placement, order.term_days);
          if (start > at) {
            starts_at = new Date(start).toISOString();
            ends_at = new Date(start + order.term_days * DAY_MS).toISOString();
          }
        }
        return c.json({
          outcome,
          order_id: order.id,
          server_name: order.server_name,
          placement: order.placement,
          // An open order's are the dates its term would have if paid now (null: from the payment's arrival).
          starts_at,
          ends_at,
        });
      })
      // What a listing can buy: the active plans, their price and term, and when a slot would start.
      .get('/listings/:id/promote', idParam, async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const listing = await ownedListing(owner.id, id);
        return c.json({
          payments: paymentsConfigured(deps.env),
          refused: promoteRefusal(listing),
          plans: await plansFor(listing),
        });
      })
      // Starts (or resumes) the Stripe Checkout of a plan for a listing: the amount, currency and
      // listing come from the server; one open checkout per listing and plan.
      .post('/listings/:id/checkout', idParam, zValidator('json', checkoutSchema, validationHook), async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const stripe = stripeFor(deps);
        if (!stripe) throw new ApiError(503, 'payments_not_configured', 'Payments are not set up on this site yet.');
        const listing = await ownedListing(owner.id, id);
        const refusal = promoteRefusal(listing);
        if (refusal) throw new ApiError(409, 'not_promotable', refusal);
        const plan = await getPlan(deps.db, c.req.valid('json').plan_id);
        if (!plan?.active) {
          const message = 'Pick one of the plans on offer';
          throw new ApiError(400, 'validation_failed', message, [{ path: 'plan_id', message }]);
        }
        const at = now();
        // The session's expiry is fixed with the order: every click on it asks Stripe for the same
        // session under the order's idempotency key, so a second click gets the first one's page.
        const open = () =>
          openOrder(deps.db, {
            serverId: id,
            ownerId: owner.id,
            plan,
            category: listing.category,
            checkoutExpiresAt: (Math.floor(at / 1000) + CHECKOUT_MINUTES * 60) * 1000,
          });
        let { order, created } = await open();
        const expiresAt = order.checkout_expires_at ? Date.parse(order.checkout_expires_at) : 0;
        // The open checkout of this listing and plan, while Stripe still takes payment on it.
        if (!created && order.checkout_url && expiresAt > at + 60_000)
          return c.json({ url: order.checkout_url, order_id: order.id });
        if (!created && (order.stripe_session_id || expiresAt < at + CHECKOUT_MIN_MS)) {
          // Its session has expired (and the webhook saying so has not come yet), or one was never
          // stored and Stripe would no longer make it as asked: close it, open another.
          await applyEvent(deps, {
            eventId: `checkout-replaced:${order.stripe_session_id ?? `order-${order.id}`}`,
            type: 'app.checkout_replaced',
            orderId: order.id,
            event: 'expired',
            at,
          });
          ({ order, created } = await open());
        }
        const site = returnOrigin(SITE_URL, c.req.url);
        let session: Awaited<ReturnType<typeof stripe.createCheckout>>;
        try {
          session = await stripe.createCheckout({
            orderId: order.id,
            listingId: id,
            productName: `${plan.name}: ${listing.name}`,
            description: `${plan.placement === 'sponsored' ? 'Sponsored' : 'Premium'} placement for ${formatTerm(plan.term_days)} on ${site.replace(/^https?:\/\//, '')}, no renewal`,
            amountCents: order.amount_cents,
            currency: order.currency,
            successUrl: `${site}/account/paid?session_id={CHECKOUT_SESSION_ID}`,
            cancelUrl: `${site}/account/cancelled`,
            expiresAt: Math.floor(Date.parse(order.checkout_expires_at!) / 1000),
          });
        } catch (error) {
          // Stripe made no session: nothing can be paid on this order, so it goes (an order that
          // had a session before stays; the query checks). Only the click that made the order
          // drops it: another click's order may be on its way back from Stripe.
          if (created) await dropUnstartedOrder(deps.db, order.id);
          if (error instanceof ApiError) throw error;
          throw new ApiError(502, 'stripe_unavailable', 'Stripe did not answer. Try again in a minute.');
        }
        // Stripe made the session, which names the order (client_reference_id): from here the order
        // stays whatever happens, so a payment on it always finds it, and a database error is the
        // database's answer, not Stripe's.
        const attached = await attachSession(deps.db, order.id, session, {
          owner,
          entry: {
            action: 'checkout',
            entity: 'order',
            entityId: order.id,
            details: { server_id: id, plan_id: plan.id, amount_cents: order.amount_cents, currency: order.currency },
          },
        });
        // The order closed meanwhile (a racing click gave up on it): its page is not handed out.
        if (!attached)
          throw new ApiError(
            409,
            'checkout_changed',
            'This checkout changed while it was being opened: press Promote again.',
          );
        return c.json({ url: session.url, order_id: order.id });
      })
      // A refund within the window, at once through Stripe; the slot ends at once and a mail goes out.
      .post('/orders/:id/refund', idParam, zValidator('json', refundSchema, validationHook), async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const order = await getOrder(deps.db, id);
        const mine =
          order &&
          order.owner_id === owner.id &&
          order.server_id !== null &&
          (await getClaim(deps.db, owner.id, order.server_id));
        if (!order || !mine) throw new ApiError(404, 'not_found', `No order ${id} of yours`);
        const at = now();
        if (order.kind !== 'checkout' || !OWNER_REFUNDABLE_STATES.includes(order.state) || !order.stripe_payment_intent)
          throw new ApiError(
            409,
            'not_refundable',
            'Only a paid placement (running, scheduled or ended) can be refunded here.',
          );
        if (!refundableByOwner(order.paid_at, at))
          throw new ApiError(409, 'refund_window_over', 'The 30 days for a refund here are over: write to support.');
        const reason = c.req.valid('json').reason ?? null;
        const { outcome } = await refundThroughStripe(
          deps,
          { ...order, stripe_payment_intent: order.stripe_payment_intent },
          reason,
          at,
          // The audit row in the refund's own batch: recorded together or not at all.
          (refund, applied) =>
            ownerAuditRowWhen(
              deps.db,
              owner,
              {
                action: 'refund',
                entity: 'order',
                entityId: order.id,
                details: { refund: refund.id, amount_cents: refund.amount, reason },
              },
              applied,
            ),
        );
        const state = outcome.kind === 'applied' ? outcome.order.state : 'refunded';
        return c.json({ order: { id: order.id, state } });
      })
      // Deletes the account and everything tied to it (its reviews and replies too); the public listings stay, unclaimed.
      .delete('/', async (c) => {
        const { owner } = c.get('ownerSession');
        // Their reviews were in those pages' built HTML: rendered on request until the publish without
        // them is live. The record goes in the deletion's batch, only when the account's row went.
        let change: PendingPublish | undefined;
        await deleteAccount(deps.db, owner.id, (pages, went) => {
          if (!pages.length) return [];
          change = preparePublish(deps.rebuild, deps.db, 'account deleted with its reviews', pages, went);
          return change.statements;
        });
        await change?.requested();
        clearOwnerCookies(c, SITE_URL);
        return c.json({ ok: true as const });
      })
  );
};
