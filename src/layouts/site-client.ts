// Site-wide behaviour shared by every page: mobile nav, icon fallback, service worker, and the
// analytics session id on the links the server records (/go joins, the premium call to action).
import { sessionId } from '~/lib/analytics';

/** Shows the initials behind a server icon whose image is missing or failed. */
function markFailed(img: HTMLImageElement) {
  img.dataset.failed = '';
}

document.addEventListener(
  'error',
  (event) => {
    const t = event.target;
    if (t instanceof HTMLImageElement && t.classList.contains('icon-img')) markFailed(t);
  },
  true,
);
for (const img of document.querySelectorAll<HTMLImageElement>('img.icon-img')) {
  if (img.complete && img.naturalWidth === 0 && img.getAttribute('src')) markFailed(img);
}

/** Shows a loaded icon on its white tile (until then, and without JavaScript, the initials show through). */
function markLoaded(img: HTMLImageElement) {
  img.dataset.loaded = '';
}

document.addEventListener(
  'load',
  (event) => {
    const t = event.target;
    if (t instanceof HTMLImageElement && t.classList.contains('icon-img')) markLoaded(t);
  },
  true,
);
for (const img of document.querySelectorAll<HTMLImageElement>('img.icon-img')) {
  if (img.complete && img.naturalWidth > 0) markLoaded(img);
}

/**
 * The server records joins and premium call-to-action clicks when it redirects (one row per
 * action); the tab's session id travels as `?s=` so those rows join the rest of the visit.
 * Added as the link is followed (click, middle click), so the static HTML stays cacheable.
 */
function carrySession(event: MouseEvent) {
  const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href^="/go/"]') : null;
  const id = link ? sessionId() : '';
  if (!link || !id) return;
  const url = new URL(link.href, location.href);
  url.searchParams.set('s', id);
  link.href = url.pathname + url.search;
}
document.addEventListener('click', carrySession, true);
document.addEventListener('auxclick', carrySession, true);

const toggle = document.querySelector<HTMLButtonElement>('[data-nav-toggle]');
const nav = document.getElementById('site-nav');
if (toggle && nav) {
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    nav.dataset.open = String(open);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && toggle.getAttribute('aria-expanded') === 'true') {
      toggle.setAttribute('aria-expanded', 'false');
      nav.dataset.open = 'false';
      toggle.focus();
    }
  });
}

if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {});
  });
}
