// A server page as one signed-in person sees it (#31), for a browser without JavaScript: the
// page's script would read their review and state from /api/reviews/servers/:id/mine, so without
// it the review route renders them into the page itself. The page is the one every visitor gets
// (the built file, or the one rendered on request for a listing the build did not prerender),
// changed only in its reviews section (ServerReviews.astro, review-form.ts): the list as it stands
// now (read from the database, not as the page was built), the author's review first in it
// whatever its status, the sentence saying where it stands, the form filled in with it for
// editing, and for the listing's owner a reply form under each review. Attribute values in built
// HTML are quoted and escaped, so a tag ends at the first `>` (as form-page.ts relies on too).
import { type Context, Hono } from 'hono';
import type { PublicReview, ReviewPage } from '../../../db/queries/reviews';
import { reviewsPageHref, reviewsRangeLine } from '../../../src/lib/reviews/cursor';
import { reviewDate } from '../../../src/lib/reviews/eligibility';
import type { OwnReviewFields } from '../../../src/lib/reviews/form';
import { memberSince } from '../../../src/lib/reviews/summary';
import type { AppDeps, AppEnv } from '../context';
import { escapeHtml } from './html';

/** The author's own review, as the page shows it to them. */
export interface OwnReview extends OwnReviewFields {
  member_since: string;
  created_at: string;
  edited_at: string | null;
}

export interface OwnReviewView {
  /** The review form's action (the form is found by it). */
  action: string;
  review: OwnReview | null;
  /** Where their review stands, or why they may not write one. */
  note: string;
  /** Whether the form stays: a new review they may write, or an edit of theirs. */
  canWrite: boolean;
  /** Whether the review sign-in link stays (their membership is not checked yet). */
  signIn: boolean;
  /** The first page of the listing's public reviews as they stand now. */
  reviews: PublicReview[];
  /** The listing's owner: a reply form under each review shown (filled in with the reply there is). */
  replies: boolean;
}

/** Where an owner's reply to review `reviewId` posts (a plain form; the page's script sends JSON to PUT). */
export const replyFormAction = (reviewId: number): string => `/api/reviews/${reviewId}/reply`;

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(5 - n);
const attrPattern = (name: string) => new RegExp(`\\s${name}(?:="[^"]*")?(?=[\\s/>])`);
const withAttr = (tag: string, name: string, value = '') =>
  attrPattern(name).test(tag)
    ? tag.replace(attrPattern(name), ` ${name}${value ? `="${escapeHtml(value)}"` : ''}`)
    : tag.replace(/\s*(\/?)>$/, ` ${name}${value ? `="${escapeHtml(value)}"` : ''}$1>`);
const withoutAttr = (tag: string, name: string) => tag.replace(attrPattern(name), '');

/** A review in the list: one of the public page's, or the author's own (with its text whatever its status). */
type ListedReview = Omit<OwnReview, 'body'> & { body: string | null; reply?: PublicReview['reply'] | undefined };

/** An owner's reply form under review `reviewId` (the markup form-page.ts fills in after a refused post). */
function replyForm(reviewId: number, current: string | null): string {
  const id = `reply-${reviewId}-body`;
  return (
    `<form method="post" action="${replyFormAction(reviewId)}" class="form review-form" aria-label="Reply to this review">` +
    '<div class="alert alert-error" role="alert" data-form-alert hidden><p class="flush" data-form-alert-text></p></div>' +
    `<div class="field"><label for="${id}">${current ? 'Edit your reply' : 'Reply as the owner'}</label>` +
    `<textarea id="${id}" name="body" rows="3" maxlength="2000" required>${escapeHtml(current ?? '')}</textarea>` +
    `<p id="${id}-error" class="field-error" data-error-for="body" hidden></p></div>` +
    `<div class="review-actions"><button type="submit" class="btn btn-primary">${current ? 'Save reply' : 'Publish reply'}</button></div>` +
    '</form>'
  );
}

/** Someone else's hidden review as a list item: the moderators' reason only (ServerReviews.astro's markup). */
const hiddenItem = (r: { id: number; hidden_reason: string | null }): string =>
  `<li class="review" data-review-id="${r.id}"><p class="muted">Hidden by moderators: ${escapeHtml(r.hidden_reason ?? '')}</p></li>`;

/** A review as a list item, in the markup of ServerReviews.astro (every text escaped); `mine` says where it stands. */
function reviewItem(r: ListedReview, mine: boolean, replies: boolean): string {
  const reply = r.reply ?? null;
  if (r.status === 'hidden' && !mine) return hiddenItem(r);
  const state =
    r.status === 'held'
      ? '<p class="muted">Held for review: only you see it until a moderator reads it.</p>'
      : r.status === 'hidden'
        ? `<p class="muted">Hidden by moderators: ${escapeHtml(r.hidden_reason ?? '')}</p>`
        : '';
  return (
    `<li class="review" id="review-${r.id}" data-review-id="${r.id}">` +
    '<p class="review-head">' +
    `<span class="review-stars" role="img" aria-label="${r.rating} of 5 stars">${stars(r.rating)}</span>` +
    `<strong>${escapeHtml(r.display_name)}</strong>` +
    `<span class="muted">member since ${escapeHtml(memberSince(r.member_since))}</span>` +
    `<time datetime="${escapeHtml(r.created_at)}">${reviewDate(Date.parse(r.created_at))}</time>` +
    (r.edited_at ? '<span class="muted">edited</span>' : '') +
    '</p>' +
    state +
    `<p class="review-body">${escapeHtml(r.body ?? '')}</p>` +
    (reply
      ? `<div class="review-reply"><p><strong>Reply from the owner</strong>${reply.edited_at ? '<span class="muted"> (edited)</span>' : ''}</p><p>${escapeHtml(reply.body)}</p></div>`
      : '') +
    (replies && r.status === 'shown' ? replyForm(r.id, reply?.body ?? null) : '') +
    '</li>'
  );
}

/** The form's fields filled in with the author's review (its rating, text and name). */
function fillReviewForm(form: string, r: OwnReview): string {
  return form
    .replace(/<select\b[^>]*\sname="rating"[^>]*>[\s\S]*?<\/select>/, (select) =>
      select.replace(/<option\b[^>]*>/g, (option) => {
        const plain = withoutAttr(option, 'selected');
        return /\svalue="([^"]*)"/.exec(option)?.[1] === String(r.rating) ? withAttr(plain, 'selected') : plain;
      }),
    )
    .replace(
      /(<textarea\b[^>]*\sname="body"[^>]*>)[\s\S]*?(<\/textarea>)/,
      (_whole, open: string, close: string) =>
        `${open}${r.body.startsWith('\n') ? '\n' : ''}${escapeHtml(r.body)}${close}`,
    )
    .replace(/<input\b[^>]*\sname="display_name"[^>]*>/, (input) => withAttr(input, 'value', r.display_name))
    .replace(/<button\b([^>]*\sdata-review-send[^>]*)>[^<]*<\/button>/, '<button$1>Save changes</button>');
}

/**
 * The server page `html` with its reviews section as `view` says: the author's review first in
 * the list (any copy the page had taken out), the note, the form filled in or hidden, the sign-in
 * link kept or hidden; `noindex` (a page for one person). The page unchanged where the section is
 * missing.
 */
export function ownReviewPage(html: string, view: OwnReviewView): string {
  let page = html.replace(
    /<meta name="robots" content="[^"]*"\s*\/?>/,
    '<meta name="robots" content="noindex, follow">',
  );
  const { review } = view;
  const items = view.reviews.map((r) =>
    r.id === review?.id
      ? reviewItem({ ...review, reply: r.reply }, true, view.replies)
      : r.status === 'hidden'
        ? hiddenItem(r)
        : reviewItem(r, false, view.replies),
  );
  // Their own review first when the page of reviews does not have it (held, or older).
  if (review && !view.reviews.some((r) => r.id === review.id)) items.unshift(reviewItem(review, true, false));
  page = page.replace(
    /(<ol\b[^>]*\sdata-reviews-list(?:="")?[^>]*>)[\s\S]*?(<\/ol>)/,
    (_whole, open: string, close: string) => `${open}${items.join('')}${close}`,
  );
  page = page.replace(
    /(<p\b[^>]*\sdata-review-note(?:="")?[^>]*>)[^<]*(<\/p>)/,
    (_whole, open: string, close: string) =>
      `${withAttr(withAttr(withoutAttr(open, 'hidden'), 'id', 'your-review'), 'role', 'status')}${escapeHtml(view.note)}${close}`,
  );
  if (!view.signIn)
    page = page.replace(/<p\b[^>]*\sdata-review-sign-in-box(?:="")?[^>]*>/, (open) => withAttr(open, 'hidden'));
  const action = view.action.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  page = page.replace(
    new RegExp(`(<form\\b[^>]*\\saction="${action}"[^>]*>)([\\s\\S]*?)(</form>)`),
    (_w, open, inner, close) => {
      if (!view.canWrite) return `${withAttr(open, 'hidden')}${inner}${close}`;
      if (!review) return `${open}${inner}${close}`;
      return `${withAttr(open, 'aria-label', 'Edit your review')}${fillReviewForm(inner, review)}${close}`;
    },
  );
  return page;
}

/**
 * The page's links to the reviews either side of the page `page` shows, and the line saying where it
 * is in the list (ServerReviews.astro's pager): each link shown with its key, or hidden.
 */
export function withReviewsPager(
  html: string,
  slug: string,
  page: Pick<ReviewPage, 'newer' | 'older' | 'from' | 'total' | 'pageSize'> & { reviews: unknown[] },
): string {
  const link = (name: 'newer' | 'older') => (open: string) => {
    const key = page[name];
    return key
      ? withAttr(withoutAttr(open, 'hidden'), 'href', reviewsPageHref(slug, name, key))
      : withAttr(withoutAttr(open, 'href'), 'hidden');
  };
  return html
    .replace(/<nav\b[^>]*\sdata-reviews-pager(?:="")?[^>]*>/, (open) =>
      page.newer || page.older ? withoutAttr(open, 'hidden') : withAttr(open, 'hidden'),
    )
    .replace(/<a\b[^>]*\sdata-reviews-newer(?:="")?[^>]*>/, link('newer'))
    .replace(/<a\b[^>]*\sdata-reviews-older(?:="")?[^>]*>/, link('older'))
    .replace(/(<p\b[^>]*\sdata-reviews-more(?:="")?[^>]*>)[^<]*(<\/p>)/, (_whole, open: string, close: string) => {
      const shown = page.total > page.pageSize ? withoutAttr(open, 'hidden') : withAttr(open, 'hidden');
      return `${shown}${escapeHtml(reviewsRangeLine(page.from, page.reviews.length, page.total))}${close}`;
    });
}

/**
 * The HTML of the site's page at `path` as a visitor gets it: the live build's file, or, for a page
 * the build did not prerender, the one rendered on request (through the app's static seam, as a
 * GET of that path would be answered); null when there is none.
 */
export async function sitePageHtml(c: Context, path: string): Promise<string | null> {
  const deps: AppDeps = c.get('deps');
  const built = await deps.sitePage?.(path).catch(() => null);
  if (built) return built;
  const staticSite = deps.staticSite;
  if (!staticSite) return null;
  const ipHash: string | undefined = c.get('ipHash');
  const probe = new Hono<AppEnv>().get('*', async (p) => {
    p.set('deps', deps);
    if (ipHash) p.set('ipHash', ipHash);
    return (await staticSite(p)) ?? p.body(null, 404);
  });
  let executionCtx: Parameters<typeof probe.request>[3];
  try {
    executionCtx = c.executionCtx;
  } catch {
    executionCtx = undefined;
  }
  const res = await probe.request(
    new URL(path, c.req.url).toString(),
    { headers: { accept: 'text/html' } },
    c.env,
    executionCtx,
  );
  if (res.status !== 200 || !/^text\/html/i.test(res.headers.get('content-type') ?? '')) return null;
  return res.text();
}
