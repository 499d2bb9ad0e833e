// The server page's reviews (#31, ServerReviews.astro): reads the listing's current reviews from
// GET /api/reviews/servers/:id (cached for at most a few seconds, so a new review shows within
// seconds on prerendered and on-demand pages alike, without a rebuild), pages through them, and
// for a signed-in person says where their review stands (or which rule refuses and from when),
// fills the page's review form with their review for editing, and adds the owner's replies and
// flags. The review form is the page's own plain form (review-form.ts), which works without this
// script: the script sends the same fields as JSON and never wipes what was typed before it ran
// (nor what the server filled in after a refused post). Everything a person wrote is set as text.

import { reviewsPageHref, reviewsRangeLine } from '~/lib/reviews/cursor';
import { reviewDate } from '~/lib/reviews/eligibility';
import {
  DELETE_QUESTIONS,
  OWNER_REVIEW_NOTE,
  type OwnReviewFields,
  ownReviewNote,
  reviewFormAction,
} from '~/lib/reviews/form';
import { averageLine, memberSince } from '~/lib/reviews/summary';
import type { ReviewPage } from '../../../../db/queries/reviews';
import { confirmBeforeDelete } from './confirm-delete';

interface Mine {
  signedIn: boolean;
  configured?: boolean;
  csrfToken?: string;
  name?: string;
  isOwner?: boolean;
  review?: OwnReviewFields | null;
  refusal?: { rule: string; message: string } | null;
}

type Issue = { path: string; message: string };
type ApiError = { error?: { message?: string; issues?: Issue[] } };

/** A refused call: the envelope's message and the fields it names. */
class Refused extends Error {
  constructor(
    message: string,
    readonly issues: Issue[],
  ) {
    super(message);
  }
}

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(5 - n);

/** An element with classes and text (never HTML). */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | null, className?: string) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

function reviewsBox(root: HTMLElement) {
  const id = Number(root.dataset.id);
  const slug = root.dataset.slug ?? '';
  const pageSize = Number(root.dataset.pageSize) || 10;
  const q = <T extends Element>(s: string) => root.querySelector<T>(s)!;
  const list = q<HTMLOListElement>('[data-reviews-list]');
  const average = q<HTMLElement>('[data-reviews-average]');
  const summaryBox = q<HTMLElement>('[data-reviews-summary]');
  const pager = q<HTMLElement>('[data-reviews-pager]');
  const newer = q<HTMLAnchorElement>('[data-reviews-newer]');
  const older = q<HTMLAnchorElement>('[data-reviews-older]');
  const more = q<HTMLElement>('[data-reviews-more]');
  const status = q<HTMLElement>('[data-reviews-status]');
  const flagReasons = q<HTMLTemplateElement>('[data-flag-reasons]');
  // The page of reviews shown: '' the first, else before= or after= a review's key (the page's
  // links carry the same keys). By key, so reviews written meanwhile never repeat one on the next page.
  let query = root.dataset.reviewsQuery ?? '';
  let mine: Mine = { signedIn: false };

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(mine.csrfToken ? { 'x-csrf-token': mine.csrfToken } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      credentials: 'same-origin',
    });
    const json = (await res.json().catch(() => ({}))) as ApiError & Record<string, unknown>;
    if (!res.ok) {
      const issues = json.error?.issues ?? [];
      throw new Refused(issues[0]?.message ?? json.error?.message ?? 'Something went wrong. Please try again.', issues);
    }
    return json;
  };

  function renderSummary(data: ReviewPage) {
    const { summary } = data;
    average.textContent =
      averageLine(summary) ??
      (summary.count === 0
        ? 'No reviews yet.'
        : `${summary.count} ${summary.count === 1 ? 'review' : 'reviews'} from verified members: the average shows from 3.`);
    summaryBox.querySelector('[data-reviews-distribution]')?.remove();
    if (summary.count > 0) {
      const ul = el('ul', null, 'reviews-distribution');
      ul.dataset.reviewsDistribution = '';
      ul.setAttribute('aria-label', 'Reviews by stars');
      for (const n of [5, 4, 3, 2, 1]) {
        const li = el('li');
        const meter = el('meter');
        meter.min = 0;
        meter.max = summary.count;
        meter.value = summary.distribution[n - 1] ?? 0;
        meter.setAttribute('aria-label', `${n} stars`);
        li.append(el('span', `${n} ★`), meter, el('span', String(summary.distribution[n - 1] ?? 0)));
        ul.append(li);
      }
      summaryBox.append(ul);
    }
  }

  function flagForm(reviewId: number, li: HTMLElement) {
    const form = el('form', null, 'review-form');
    const label = el('label', 'Why flag this review?');
    const select = el('select');
    select.name = 'reason';
    select.required = true;
    select.append(flagReasons.content.cloneNode(true));
    label.append(select);
    const send = el('button', 'Send flag', 'btn btn-outline');
    send.type = 'submit';
    const msg = el('p', null, 'muted');
    msg.setAttribute('role', 'status');
    form.append(label, send, msg);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        const res = await call('POST', `/api/reviews/${reviewId}/flags`, { reason: select.value });
        msg.textContent = String(res.message ?? 'Thank you.');
        send.disabled = true;
      } catch (err) {
        msg.textContent = (err as Error).message;
      }
    });
    li.append(form);
  }

  /** Back to a review's reply box once the list is drawn again (its form was replaced, and the focus fell to the page). */
  function focusReply(reviewId: number) {
    list.querySelector<HTMLTextAreaElement>(`[data-review-id="${reviewId}"] textarea[name="reply"]`)?.focus();
  }

  function replyForm(reviewId: number, li: HTMLElement, current: string | null) {
    const form = el('form', null, 'review-form');
    const label = el('label', current ? 'Edit your reply' : 'Reply as the owner');
    const area = el('textarea');
    area.name = 'reply';
    area.rows = 3;
    area.maxLength = 2000;
    area.value = current ?? '';
    label.append(area);
    const send = el('button', current ? 'Save reply' : 'Publish reply', 'btn btn-primary');
    send.type = 'submit';
    const actions = el('div', null, 'review-actions');
    actions.append(send);
    if (current) {
      const del = el('button', 'Delete reply', 'btn btn-outline');
      del.type = 'button';
      confirmBeforeDelete(del, DELETE_QUESTIONS.reply, async () => {
        try {
          await call('DELETE', `/api/reviews/${reviewId}/reply`);
          status.textContent = 'Your reply is deleted.';
          await load(true);
          focusReply(reviewId);
        } catch (err) {
          msg.textContent = (err as Error).message;
          throw err;
        }
      });
      actions.append(del);
    }
    const msg = el('p', null, 'form-error');
    msg.setAttribute('role', 'status');
    form.append(label, actions, msg);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await call('PUT', `/api/reviews/${reviewId}/reply`, { body: area.value });
        status.textContent = 'Your reply is published.';
        await load(true);
        focusReply(reviewId);
      } catch (err) {
        msg.textContent = (err as Error).message;
      }
    });
    li.append(form);
  }

  function renderList(data: ReviewPage) {
    list.replaceChildren(
      ...data.reviews.map((r) => {
        const li = el('li', null, 'review');
        li.dataset.reviewId = String(r.id);
        if (r.status === 'hidden') {
          li.append(el('p', `Hidden by moderators: ${r.hidden_reason ?? ''}`, 'muted'));
          return li;
        }
        const head = el('p', null, 'review-head');
        const starSpan = el('span', stars(r.rating), 'review-stars');
        starSpan.setAttribute('role', 'img');
        starSpan.setAttribute('aria-label', `${r.rating} of 5 stars`);
        const time = el('time', reviewDate(Date.parse(r.created_at)));
        time.dateTime = r.created_at;
        head.append(
          starSpan,
          el('strong', r.display_name),
          el('span', `member since ${memberSince(r.member_since)}`, 'muted'),
          time,
        );
        if (r.edited_at) head.append(el('span', 'edited', 'muted'));
        li.append(head, el('p', r.body, 'review-body'));
        if (r.reply) {
          const box = el('div', null, 'review-reply');
          const title = el('p');
          title.append(el('strong', 'Reply from the owner'));
          if (r.reply.edited_at) title.append(el('span', ' (edited)', 'muted'));
          box.append(title, el('p', r.reply.body));
          li.append(box);
        }
        if (mine.signedIn) {
          const own = mine.review?.id === r.id;
          if (mine.isOwner) replyForm(r.id, li, r.reply?.body ?? null);
          if (!own) {
            const details = el('details');
            details.append(el('summary', 'Flag this review'));
            flagForm(r.id, details);
            li.append(details);
          }
        }
        return li;
      }),
    );
    // rel="prev"/"next" only on a link that leads somewhere (an <a> without href may not carry rel).
    const link = (a: HTMLAnchorElement, dir: 'newer' | 'older', key: string | null) => {
      a.hidden = !key;
      if (key) {
        a.href = reviewsPageHref(slug, dir, key);
        a.rel = dir === 'newer' ? 'prev' : 'next';
      } else {
        a.removeAttribute('href');
        a.removeAttribute('rel');
      }
      a.dataset.key = key ?? '';
    };
    link(newer, 'newer', data.newer);
    link(older, 'older', data.older);
    pager.hidden = !data.newer && !data.older;
    more.hidden = data.total <= pageSize;
    more.textContent = reviewsRangeLine(data.from, data.reviews.length, data.total);
  }

  // The page's review form: its fields, its summary box and each field's message slot.
  const signInBox = q<HTMLElement>('[data-review-sign-in-box]');
  const note = q<HTMLElement>('[data-review-note]');
  const form = q<HTMLFormElement>('[data-review-form]');
  const send = q<HTMLButtonElement>('[data-review-send]');
  const rating = form.elements.namedItem('rating') as HTMLSelectElement;
  const area = form.elements.namedItem('body') as HTMLTextAreaElement;
  const nameInput = form.elements.namedItem('display_name') as HTMLInputElement;
  const alertBox = form.querySelector<HTMLElement>('[data-form-alert]');
  const alertText = form.querySelector<HTMLElement>('[data-form-alert-text]');
  const actions = send.parentElement!;
  let deleteButton: HTMLButtonElement | null = null;

  /** Clears the form's messages (the summary, each field's slot and mark). */
  function clearProblem() {
    if (alertBox) alertBox.hidden = true;
    if (alertText) alertText.textContent = '';
    for (const slot of form.querySelectorAll<HTMLElement>('[data-error-for]')) {
      slot.hidden = true;
      slot.textContent = '';
      const control = form.querySelector(`[name="${slot.dataset.errorFor}"]`);
      control?.removeAttribute('aria-invalid');
      if (control) linkMessage(control, slot.id, false);
    }
  }

  /** Links a control to its message slot (first, as the page without JavaScript does) or unlinks it. */
  function linkMessage(control: Element, slotId: string, on: boolean) {
    if (!slotId) return;
    const others = (control.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((i) => i && i !== slotId);
    const ids = on ? [slotId, ...others] : others;
    if (ids.length > 0) control.setAttribute('aria-describedby', ids.join(' '));
    else control.removeAttribute('aria-describedby');
  }

  /** Shows why a send was refused: the summary above the fields and each named field's message. */
  function showProblem(err: unknown) {
    const issues = err instanceof Refused ? err.issues : [];
    if (alertText) alertText.textContent = (err as Error).message;
    if (alertBox) alertBox.hidden = false;
    let first: HTMLElement | null = null;
    for (const issue of issues) {
      const name = issue.path.split('.')[0] ?? '';
      const slot = form.querySelector<HTMLElement>(`[data-error-for="${name}"]`);
      if (!slot) continue;
      slot.textContent = issue.message;
      slot.hidden = false;
      const control = form.querySelector(`[name="${name}"]`);
      control?.setAttribute('aria-invalid', 'true');
      if (control) linkMessage(control, slot.id, true);
      first ??= control as HTMLElement | null;
    }
    // The first refused field takes the focus, its message read with it (as the other forms do).
    first?.focus();
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    send.disabled = true;
    clearProblem();
    try {
      const res = await call('POST', reviewFormAction(id), {
        rating: Number(rating.value),
        body: area.value,
        display_name: nameInput.value.trim() || undefined,
      });
      status.textContent = String(res.message ?? '');
      await refreshMine();
      query = '';
      await load(true);
    } catch (err) {
      showProblem(err);
    } finally {
      send.disabled = false;
      // Disabling the focused button dropped the focus to the page: it comes back to the button
      // when no refused field took it (sent, or refused as a whole).
      if (document.activeElement === document.body) send.focus();
    }
  });

  function deleteOwn(reviewId: number) {
    const del = el('button', 'Delete my review', 'btn btn-outline');
    del.type = 'button';
    // It asks first: a deleted review is gone for good.
    confirmBeforeDelete(del, DELETE_QUESTIONS.review, async () => {
      clearProblem();
      try {
        await call('DELETE', `/api/reviews/${reviewId}`);
        status.textContent = 'Your review is deleted.';
        form.reset();
        area.value = '';
        nameInput.value = '';
        await refreshMine();
        query = '';
        await load(true);
        // The button is gone with the review: the focus goes to the emptied form, not to the page.
        rating.focus();
      } catch (err) {
        showProblem(err);
        throw err;
      }
    });
    return del;
  }

  /**
   * Where the signed-in person stands: their review's state (and the form filled with it, unless
   * something is typed there already), the rule that refuses them, or the owner's note. What was
   * typed before the script ran is never hidden or replaced.
   */
  function renderWrite() {
    if (!mine.signedIn) return; // The sign-in link and the form the page has stay.
    const own = mine.review;
    const typed = area.value.trim() !== '';
    signInBox.hidden = mine.refusal?.rule !== 'membership_unknown';
    // With a review, `refusal` is the rule that refuses its edit (the reviewer became the owner, say).
    const text = own
      ? [ownReviewNote(own.status, own.hidden_reason), mine.refusal?.message].filter(Boolean).join(' ')
      : mine.isOwner
        ? OWNER_REVIEW_NOTE
        : (mine.refusal?.message ?? '');
    note.textContent = text;
    note.hidden = !text;
    const canWrite = own ? !mine.refusal : !mine.isOwner && !mine.refusal;
    form.hidden = !canWrite && !typed;
    form.setAttribute('aria-label', own ? 'Edit your review' : 'Write a review');
    send.textContent = own ? 'Save changes' : 'Publish review';
    if (own && !typed) {
      rating.value = String(own.rating);
      area.value = own.body;
      nameInput.value = own.display_name;
    }
    // The button and any question it opened (placed right after it) go; a new one is drawn.
    if (deleteButton?.nextElementSibling?.classList.contains('confirm-delete'))
      deleteButton.nextElementSibling.remove();
    deleteButton?.remove();
    deleteButton = own ? deleteOwn(own.id) : null;
    // Its author may always delete it: under the note when its edit is refused (the form is hidden).
    if (deleteButton && form.hidden) note.after(deleteButton);
    else if (deleteButton) actions.append(deleteButton);
  }

  async function refreshMine() {
    try {
      const res = await fetch(`/api/reviews/servers/${id}/mine`, { credentials: 'same-origin', cache: 'no-store' });
      if (res.ok) mine = (await res.json()) as Mine;
    } catch {
      // Offline or refused: the page keeps its sign-in link.
    }
    renderWrite();
  }

  /** Reads a page of reviews; `fresh` skips every cache (the author sees their change at once). */
  async function load(fresh = false): Promise<ReviewPage | null> {
    try {
      const params = [query, fresh ? `fresh=${Date.now()}` : ''].filter(Boolean).join('&');
      const res = await fetch(`/api/reviews/servers/${id}${params ? `?${params}` : ''}`, {
        cache: fresh ? 'no-store' : 'default',
      });
      if (!res.ok) return null;
      const data = (await res.json()) as ReviewPage;
      renderSummary(data);
      renderList(data);
      root.dataset.reviewsLoaded = String(Date.now());
      return data;
    } catch {
      // The reviews shown stay (and the links still lead to the next page without the script).
      return null;
    }
  }

  /** Pages by the link's key without leaving the page; the link itself works without the script. */
  const pageBy = (a: HTMLAnchorElement, dir: 'before' | 'after', other: HTMLAnchorElement) =>
    a.addEventListener('click', async (e) => {
      if (!a.dataset.key || e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      query = `${dir}=${encodeURIComponent(a.dataset.key)}`;
      const data = await load();
      if (!data) return;
      status.textContent = reviewsRangeLine(data.from, data.reviews.length, data.total);
      // At the end of the list this link is gone: the focus goes to the other one, not to the page.
      if (a.hidden && !other.hidden) other.focus();
    });
  pageBy(newer, 'after', older);
  pageBy(older, 'before', newer);
  void refreshMine().then(() => load());
}

for (const root of document.querySelectorAll<HTMLElement>('[data-reviews]')) reviewsBox(root);
