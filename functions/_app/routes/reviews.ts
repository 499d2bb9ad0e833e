// `/api/reviews` (#31): member reviews. Public: a listing's reviews as JSON (cached a few seconds,
// so a new review is on every page within seconds without a rebuild). Signed in (the one Discord
// sign-in, middleware/owner-auth.ts, CSRF on writes): the account's own review of a listing and
// whether it may write one, writing (a second review edits the first) and deleting it, the
// listing owner's one reply, and flags. Moderation is the console's (routes/admin/reviews.ts).

import { zValidator } from '@hono/zod-validator';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { spendClientBudget } from '../../../db/queries/client-budgets';
import type { ActiveOwnerSession } from '../../../db/queries/owners';
import {
  accountName,
  deleteOwnReview,
  deleteReply,
  flagReview,
  getAccountSettings,
  getOwnReview,
  getReview,
  getReviewProof,
  getReviewTarget,
  listPublicReviews,
  ownerMailsOf,
  type ReviewsAt,
  saveReply,
  saveReview,
} from '../../../db/queries/reviews';
import { notifyOwner } from '../../../db/queries/webhooks';
import { safeEqual } from '../../../src/lib/hash';
import { parseReviewKey, type ReviewKey, readReviewsQuery, reviewsPagePath } from '../../../src/lib/reviews/cursor';
import { type ReviewRefusal, reviewRefusal } from '../../../src/lib/reviews/eligibility';
import {
  heldMessage,
  OWNER_REVIEW_NOTE,
  ownReviewNote,
  ownReviewPath,
  refusedPostNote,
  reviewFormAction,
} from '../../../src/lib/reviews/form';
import { REVIEWS_PAGE_SIZE } from '../../../src/lib/reviews/summary';
import {
  REPLY_LABELS,
  REVIEW_LABELS,
  replySchema,
  reviewFlagSchema,
  reviewSchema,
} from '../../../src/lib/schemas/review';
import type { AppDeps } from '../context';
import { ApiError } from '../lib/errors';
import { currentOwner } from '../lib/owner-session';
import { RATE_LIMITS } from '../lib/rate-limits';
import { ownReviewPage, replyFormAction, sitePageHtml, withReviewsPager } from '../lib/review-page';
import { assertSameOrigin } from '../lib/same-origin';
import { type PendingPublish, preparePublish, serverPaths } from '../lib/site-changes';
import { body as readValidBody, validationHook } from '../lib/validate';
import { reviewNewMail, reviewReplyMail } from '../mail/reviews';
import { mailSite } from '../mail/site';
import { type OwnerEnv, ownerAuth } from '../middleware/owner-auth';
import { rateLimit } from '../middleware/rate-limit';

/** How long a review sign-in's membership check counts for a new review. */
export const REVIEW_PROOF_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Writes per account (counted in the database, client_budgets, so they hold on every replica and
 * the Worker): reviews and their edits, replies, flags.
 */
export const REVIEW_WRITE_LIMITS = {
  reviews: { perWindow: 10, windowMs: 60 * 60 * 1000 },
  replies: { perWindow: 30, windowMs: 60 * 60 * 1000 },
  flags: { perWindow: 20, windowMs: 60 * 60 * 1000 },
} as const;

/** How long a listing's public reviews may be cached (seconds): a new review shows within it. */
export const REVIEWS_MAX_AGE_S = 5;

const idParam = zValidator(
  'param',
  z.object({
    id: z
      .string()
      .regex(/^[1-9]\d{0,11}$/, 'Must be an id')
      .transform(Number),
  }),
  validationHook,
);

/** A review key in the query (src/lib/reviews/cursor.ts), or the 400 naming the field. */
const keyParam = z
  .string()
  .transform((v, ctx) => {
    const key = parseReviewKey(v);
    if (key) return key;
    ctx.addIssue({ code: 'custom', message: 'Must be a review key' });
    return z.NEVER;
  })
  .optional();

/**
 * Which page of reviews: before or after a review's key (how the page's script and links page, so
 * reviews written meanwhile do not shift a page), else `page` N (an offset: the API's first paging).
 */
const pageQuery = zValidator(
  'query',
  z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1), before: keyParam, after: keyParam }),
  validationHook,
);

/** Where the query starts its page of reviews. */
const reviewsAt = (q: { page: number; before?: ReviewKey | undefined; after?: ReviewKey | undefined }): ReviewsAt =>
  q.before ? { before: q.before } : q.after ? { after: q.after } : { page: q.page };

/** The 403 of a rule that refuses a review: the rule as the code, the sentence with its date as the message. */
const refusedBy = (r: ReviewRefusal) => new ApiError(403, r.rule, r.message);

/** The review routes, mounted at /api/reviews. */
export const reviewRoutes = (deps: AppDeps) => {
  const now = () => deps.now?.() ?? Date.now();
  const site = () => mailSite(deps.env);
  const pageUrl = (slug: string) => `${site().url}/server/${slug}`;

  /** Spends one of the account's writes of `kind`, or answers 429. */
  const spend = async (kind: keyof typeof REVIEW_WRITE_LIMITS, accountId: number) => {
    if (!deps.env.RATE_LIMITS) return;
    const spent = await spendClientBudget(
      deps.db,
      `review-${kind}`,
      `account:${accountId}`,
      now(),
      REVIEW_WRITE_LIMITS[kind],
    );
    if (!spent.ok)
      throw new ApiError(429, 'rate_limited', `Too many ${kind} from your account: try again later.`, undefined, {
        'Retry-After': String(Math.ceil(spent.retryAfterMs / 1000)),
      });
  };

  /** Why this account may not write a new review of the listing now, or null (the membership proof from its review sign-in). */
  const refusalFor = async (
    account: { id: number; discord_user_id: string },
    target: { id: number; ownerIds: number[] },
  ): Promise<ReviewRefusal | null> => {
    const proof = await getReviewProof(deps.db, account.id, target.id);
    const fresh = proof && now() - Date.parse(proof.checked_at) < REVIEW_PROOF_TTL_MS;
    if (!fresh && !target.ownerIds.includes(account.id))
      return {
        rule: 'membership_unknown',
        message: 'Sign in with Discord from this page to check your membership before reviewing.',
        from: null,
      };
    return reviewRefusal(
      {
        discordUserId: account.discord_user_id,
        member: proof?.member ?? false,
        role: proof?.role ?? null,
        claimedOwner: target.ownerIds.includes(account.id),
        joinedAt: proof?.joined_at ?? null,
      },
      now(),
      deps.env.REVIEW_MIN_MEMBER_DAYS,
    );
  };

  /**
   * Why this account may not edit its review of the listing now, or null: the create path's rules
   * over the latest membership proof it has (whatever its age: an edit needs no new review sign-in),
   * so a reviewer who has since become the listing's claimed owner, or its owner or a manager on
   * Discord, is refused as a new review would be (edits once skipped every rule).
   */
  const editRefusalFor = async (
    account: { id: number; discord_user_id: string },
    target: { id: number; ownerIds: number[] },
  ): Promise<ReviewRefusal | null> => {
    const proof = await getReviewProof(deps.db, account.id, target.id);
    const refusal = reviewRefusal(
      {
        discordUserId: account.discord_user_id,
        member: proof?.member ?? true,
        role: proof?.role ?? null,
        claimedOwner: target.ownerIds.includes(account.id),
        joinedAt: proof?.joined_at ?? null,
      },
      now(),
      deps.env.REVIEW_MIN_MEMBER_DAYS,
    );
    return refusal?.rule === 'membership_unknown' ? null : refusal;
  };

  const listing = async (id: number) => {
    const target = await getReviewTarget(deps.db, id);
    if (!target?.is_active) throw new ApiError(404, 'not_found', `No listing ${id}`);
    return target;
  };

  /**
   * The review form of the listing in the path, for a browser without JavaScript: a refused form
   * post is answered with the listing's page (built, or rendered on request), filled in with what
   * was typed and why it was refused (lib/form-redirect.ts).
   */
  const reviewForm: MiddlewareHandler<OwnerEnv> = async (c, next) => {
    const id = Number(c.req.param('id'));
    const { slug } = await listing(id);
    const path = `/server/${slug}`;
    c.set('form', {
      path,
      action: reviewFormAction(id),
      labels: REVIEW_LABELS,
      page: (ctx) => sitePageHtml(ctx, path),
      fallback: (code) => `${path}?error=${encodeURIComponent(code)}#write-review`,
    });
    await next();
  };

  /**
   * The signed-in writer of a review, or the 401. A JSON call (the page's script) carries the
   * session's CSRF token; a plain form post (no JavaScript, so no token) is held to the same-origin
   * check every form post passes (its Origin or Referer must be this site; one with neither is
   * refused), the check the site's other forms rely on, and the session cookie is SameSite=Strict.
   */
  const writer = async (c: Context<OwnerEnv>) => {
    const session = await currentOwner(c, deps);
    if (!session)
      throw new ApiError(
        401,
        'unauthenticated',
        'Sign in with Discord to write a review: use "Write a review" above, then send your review again.',
      );
    if (c.get('body')?.kind === 'form') assertSameOrigin(c, deps.env.SITE_URL);
    else if (!safeEqual(c.req.header('x-csrf-token') ?? '', session.csrfToken))
      throw new ApiError(403, 'csrf', 'Missing or invalid CSRF token; reload the page');
    return session;
  };

  /**
   * Publishes (or edits) the owner's one reply to a shown review; the reviewer is mailed of a new
   * one. 404 for no such review, 403 for anyone but the listing's claimed owner.
   */
  const publishReply = async (ownerId: number, id: number, body: string) => {
    const row = await getReview(deps.db, id);
    const target = row ? await getReviewTarget(deps.db, row.review.server_id) : null;
    if (!row || !target || row.review.status !== 'shown')
      throw new ApiError(404, 'not_found', `No review ${id} to reply to`);
    // A hidden listing takes no writes (as `listing` refuses them): its owner's reply once went through.
    if (!target.is_active) throw new ApiError(404, 'not_found', `No listing ${target.id}`);
    if (!target.ownerIds.includes(ownerId))
      throw new ApiError(403, 'not_owner', 'Only the owner of this listing can reply to its reviews.');
    await spend('replies', ownerId);
    const to = (await getAccountSettings(deps.db, row.review.account_id)).email;
    const mail = to
      ? {
          kind: 'review_reply' as const,
          to,
          mail: reviewReplyMail(site(), {
            serverName: row.server_name,
            serverUrl: pageUrl(row.server_slug),
            reply: body,
          }),
        }
      : null;
    // An edited reply changes the page's built HTML: its record goes in the edit's batch.
    let change: PendingPublish | undefined;
    const { created } = await saveReply(
      deps.db,
      { reviewId: id, accountId: ownerId, body, at: now(), mail },
      (edited) => {
        const reason = `reply edited on ${row.server_slug}`;
        change = preparePublish(deps.rebuild, deps.db, reason, serverPaths([row.server_slug]), edited);
        return change.statements;
      },
    );
    if (!created) await change?.requested();
    return { created, serverId: target.id };
  };

  /**
   * The listing's page as this signed-in person sees it without JavaScript (lib/review-page.ts):
   * the reviews as they stand, their own first, where it stands (or why they may not write one),
   * the form filled in for editing, and reply forms for the listing's owner. Null when the page
   * cannot be read.
   */
  const personalPage = async (
    c: Context,
    target: Awaited<ReturnType<typeof listing>>,
    { owner }: ActiveOwnerSession,
  ): Promise<string | null> => {
    const html = await sitePageHtml(c, `/server/${target.slug}`);
    if (!html) return null;
    const [own, list] = await Promise.all([
      getOwnReview(deps.db, owner.id, target.id),
      listPublicReviews(deps.db, target.id, { page: 1 }, REVIEWS_PAGE_SIZE),
    ]);
    const refusal = own ? await editRefusalFor(owner, target) : await refusalFor(owner, target);
    const isOwner = target.ownerIds.includes(owner.id);
    const refused = new URL(c.req.url).searchParams.get('error');
    const note = refused
      ? refusedPostNote(refused)
      : own
        ? [ownReviewNote(own.status, own.hidden_reason), refusal?.message].filter(Boolean).join(' ')
        : isOwner
          ? OWNER_REVIEW_NOTE
          : (refusal?.message ?? 'Write your review below.');
    // The links to older reviews follow the list shown (the built page's follow the built list).
    return withReviewsPager(
      ownReviewPage(html, {
        action: reviewFormAction(target.id),
        review: own,
        note,
        canWrite: own ? !refusal : !isOwner && !refusal,
        signIn: !own && refusal?.rule === 'membership_unknown',
        reviews: list.reviews,
        replies: isOwner,
      }),
      target.slug,
      list,
    );
  };

  /**
   * An owner's reply form under a review, for a browser without JavaScript: a refused post is
   * answered with the owner's view of the listing's page, that form filled in.
   */
  const replyForm: MiddlewareHandler<OwnerEnv> = async (c, next) => {
    const id = Number(c.req.param('id'));
    const row = await getReview(deps.db, id);
    const target = row ? await getReviewTarget(deps.db, row.review.server_id) : null;
    if (!row || !target?.is_active) throw new ApiError(404, 'not_found', `No review ${id} to reply to`);
    const path = `/server/${target.slug}`;
    c.set('form', {
      path,
      action: replyFormAction(id),
      labels: REPLY_LABELS,
      page: async (ctx) => {
        const session = await currentOwner(ctx, deps);
        return session ? personalPage(ctx, target, session) : sitePageHtml(ctx, path);
      },
      fallback: (code) => `${ownReviewPath(target.id)}?error=${encodeURIComponent(code)}`,
    });
    await next();
  };

  return (
    new Hono<OwnerEnv>()
      // A listing's public reviews, newest first, a page at a time, with the average and distribution.
      .get('/servers/:id', rateLimit(RATE_LIMITS.servers), idParam, pageQuery, async (c) => {
        const { id } = c.req.valid('param');
        await listing(id);
        const body = await listPublicReviews(deps.db, id, reviewsAt(c.req.valid('query')), REVIEWS_PAGE_SIZE);
        return c.json(body, 200, { 'Cache-Control': `public, max-age=${REVIEWS_MAX_AGE_S}` });
      })
      // Where a page of reviews past the first once was (the listing's page rendered into an API
      // answer): now a page of the site, /server/{slug}/reviews (src/pages/server/[slug]/reviews.astro),
      // so old links and bookmarks move there for good, key and all. Without a key, the listing's
      // reviews; a key that is not one goes along, for the page's own 400.
      .get('/servers/:id/page', rateLimit(RATE_LIMITS.servers), idParam, async (c) => {
        const { id } = c.req.valid('param');
        const target = await listing(id);
        const url = new URL(c.req.url);
        const read = readReviewsQuery(url.searchParams);
        if (read.kind === 'none') return c.redirect(`/server/${target.slug}#reviews`, 301);
        return c.redirect(
          `${reviewsPagePath(target.slug)}?${read.kind === 'page' ? read.query : url.search.slice(1)}`,
          301,
        );
      })
      // For the page's island: who is signed in, their own review (any status), whether they may write one or reply.
      .get('/servers/:id/mine', idParam, async (c) => {
        const { id } = c.req.valid('param');
        const target = await listing(id);
        const session = await currentOwner(c, deps);
        c.header('Cache-Control', 'no-store');
        if (!session) return c.json({ signedIn: false as const, configured: !!deps.env.DISCORD_CLIENT_ID });
        const { owner } = session;
        const own = await getOwnReview(deps.db, owner.id, id);
        // With a review: the rule that refuses its edit (the reviewer became the listing's owner, say).
        const refusal = own ? await editRefusalFor(owner, target) : await refusalFor(owner, target);
        return c.json({
          signedIn: true as const,
          configured: true,
          csrfToken: session.csrfToken,
          name: owner.global_name || owner.username,
          isOwner: target.ownerIds.includes(owner.id),
          review: own
            ? {
                id: own.id,
                rating: own.rating,
                body: own.body,
                display_name: own.display_name,
                status: own.status,
                hidden_reason: own.hidden_reason,
                created_at: own.created_at,
                edited_at: own.edited_at,
              }
            : null,
          refusal: refusal && { rule: refusal.rule, message: refusal.message },
        });
      })
      // The author's view of the listing's page, for a browser without JavaScript (where a review
      // sent as a plain form lands): their review shown at once whatever its status, where it
      // stands, and the form filled in for editing (or why they may not write one). Not cached.
      .get('/servers/:id/yours', idParam, async (c) => {
        const { id } = c.req.valid('param');
        const target = await listing(id);
        const back = `/server/${target.slug}#write-review`;
        const session = await currentOwner(c, deps);
        if (!session) return c.redirect(back, 303);
        const page = await personalPage(c, target, session);
        if (!page) return c.redirect(back, 303);
        return c.html(page, 200, { 'Cache-Control': 'no-store' });
      })
      // Writes the account's review of a listing; a second one edits the first. 201 new, 200 edited;
      // a plain form post (no JavaScript) is answered with a 303 to the author's view of the page.
      .post(
        '/servers/:id',
        idParam,
        reviewForm,
        readValidBody(reviewSchema, { labels: REVIEW_LABELS, forms: true }),
        async (c) => {
          const { owner } = await writer(c);
          const { id } = c.req.valid('param');
          const input = c.req.valid('json');
          const target = await listing(id);
          const existing = await getOwnReview(deps.db, owner.id, id);
          let memberSince = existing?.member_since;
          if (!existing) {
            const refusal = await refusalFor(owner, target);
            if (refusal) throw refusedBy(refusal);
            memberSince = (await getReviewProof(deps.db, owner.id, id))?.joined_at ?? undefined;
          } else {
            const refusal = await editRefusalFor(owner, target);
            if (refusal) throw refusedBy(refusal);
          }
          await spend('reviews', owner.id);
          const displayName = input.display_name ?? existing?.display_name ?? (await accountName(deps.db, owner.id));
          const mails = existing
            ? []
            : (await ownerMailsOf(deps.db, id)).map((o) => ({
                kind: 'review_new' as const,
                to: o.email,
                mail: reviewNewMail(site(), {
                  serverName: target.name,
                  serverUrl: pageUrl(target.slug),
                  reviewer: displayName,
                  rating: input.rating,
                  body: input.body,
                }),
              }));
          // An edit changes what the page's built HTML shows: its record goes in the edit's batch.
          let change: PendingPublish | undefined;
          const result = await saveReview(
            deps.db,
            {
              serverId: id,
              accountId: owner.id,
              existingId: existing?.id ?? null,
              rating: input.rating,
              body: input.body,
              displayName,
              memberSince: memberSince ?? new Date(now()).toISOString(),
              at: now(),
              burstLimit: deps.env.REVIEW_BURST_LIMIT,
              mails,
            },
            (edited) => {
              const reason = `review edited on ${target.slug}`;
              change = preparePublish(deps.rebuild, deps.db, reason, serverPaths([target.slug]), edited);
              return change.statements;
            },
          );
          // The account's review was not as read above: written from two tabs (or clicks) at once, the
          // other stored first; or deleted meanwhile. Nothing of this one was stored, and it says so.
          if (!result.ok)
            throw result.reason === 'exists'
              ? new ApiError(
                  409,
                  'review_exists',
                  'This review was not saved: your review of this listing was saved a moment ago (sent twice, or from another tab). Reload the page to see it, then edit it.',
                )
              : new ApiError(
                  409,
                  'review_gone',
                  'Your changes were not saved: your review was deleted meanwhile. Reload the page to write a new one.',
                );
          const { saved } = result;
          // Served on request until its publish is live.
          if (!saved.created) await change?.requested();
          // The owners' Discord webhooks (#32) hear of a new review that shows (a held one when released).
          if (saved.created && saved.status === 'shown') {
            await notifyOwner(
              deps.db,
              { serverId: id },
              { kind: 'new_review', serverName: target.name, url: pageUrl(target.slug) },
              `review:${saved.id}`,
            );
          }
          if (c.get('body')?.kind === 'form') return c.redirect(`${ownReviewPath(id)}#your-review`, 303);
          return c.json(
            {
              review: { id: saved.id, status: saved.status },
              message:
                saved.status === 'held'
                  ? heldMessage(saved.heldReason)
                  : saved.created
                    ? 'Your review is published.'
                    : 'Your review is updated.',
            },
            saved.created ? 201 : 200,
          );
        },
      )
      // The owner's reply as a plain form post (no JavaScript): published or edited as PUT does,
      // then a 303 back to the owner's view of the page, at the review.
      .post(
        '/:id/reply',
        idParam,
        replyForm,
        readValidBody(replySchema, { labels: REPLY_LABELS, forms: true }),
        async (c) => {
          const { owner } = await writer(c);
          const { id } = c.req.valid('param');
          const { body } = c.req.valid('json');
          const { created, serverId } = await publishReply(owner.id, id, body);
          if (c.get('body')?.kind === 'form') return c.redirect(`${ownReviewPath(serverId)}#review-${id}`, 303);
          return c.json({ reply: { review_id: id, body } }, created ? 201 : 200);
        },
      )
      .use(ownerAuth())
      // Deletes the account's own review (nobody else can delete it).
      .delete('/:id', idParam, async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const row = await getReview(deps.db, id);
        if (!row || row.review.account_id !== owner.id)
          throw new ApiError(404, 'not_found', `No review ${id} of yours`);
        const reason = `review deleted on ${row.server_slug}`;
        const change = preparePublish(deps.rebuild, deps.db, reason, serverPaths([row.server_slug]));
        if (!(await deleteOwnReview(deps.db, owner.id, id, change.statements)))
          throw new ApiError(404, 'not_found', `No review ${id} of yours`);
        await change.requested();
        return c.json({ ok: true as const });
      })
      // The listing's claimed owner publishes (or edits) its one reply to a review; the reviewer is mailed once.
      .put('/:id/reply', idParam, zValidator('json', replySchema, validationHook), async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const { body } = c.req.valid('json');
        const { created } = await publishReply(owner.id, id, body);
        return c.json({ reply: { review_id: id, body } }, created ? 201 : 200);
      })
      .delete('/:id/reply', idParam, async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const row = await getReview(deps.db, id);
        const target = row ? await getReviewTarget(deps.db, row.review.server_id) : null;
        let change: PendingPublish | undefined;
        const removed =
          row &&
          target?.ownerIds.includes(owner.id) &&
          (await deleteReply(deps.db, id, (when) => {
            const reason = `reply deleted on ${row.server_slug}`;
            change = preparePublish(deps.rebuild, deps.db, reason, serverPaths([row.server_slug]), when);
            return change.statements;
          }));
        if (!removed) throw new ApiError(404, 'not_found', `No reply of yours to review ${id}`);
        await change?.requested();
        return c.json({ ok: true as const });
      })
      // Anyone signed in flags a review for the moderators (the owner's flags join the same queue).
      .post('/:id/flags', idParam, zValidator('json', reviewFlagSchema, validationHook), async (c) => {
        const { owner } = c.get('ownerSession');
        const { id } = c.req.valid('param');
        const row = await getReview(deps.db, id);
        if (!row || row.review.status === 'held') throw new ApiError(404, 'not_found', `No review ${id}`);
        // A hidden listing's reviews are on no page to flag from, and take no writes.
        if (!(await getReviewTarget(deps.db, row.review.server_id))?.is_active)
          throw new ApiError(404, 'not_found', `No listing ${row.review.server_id}`);
        if (row.review.account_id === owner.id)
          throw new ApiError(403, 'own_review', 'You cannot flag your own review: edit or delete it instead.');
        await spend('flags', owner.id);
        const { reason, details } = c.req.valid('json');
        await flagReview(deps.db, { reviewId: id, accountId: owner.id, reason, details: details ?? null, at: now() });
        return c.json({ ok: true as const, message: 'Thank you: a moderator will look at this review.' }, 201);
      })
  );
};
