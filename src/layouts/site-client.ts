// Site-wide behaviour shared by every page: mobile nav, icon fallback, service worker, and the
// analytics session id on the links the server records (/go joins, the premium call to action).
import { sessionId } from '~/lib/analytics';

/**
 * Marks a server icon's state: `data-loaded` puts a loaded image on its white tile, `data-failed`
 * hides a missing or broken one; until then, and without JavaScript, the initials show through.
 */
function markIcon(img: HTMLImageElement, state: 'loaded' | 'failed') {
  img.dataset[state] = '';
}

for (const [type, state] of [
  ['load', 'loaded'],
  ['error', 'failed'],
] as const) {
  document.addEventListener(
    type,
    (event) => {
      const t = event.target;
      if (t instanceof HTMLImageElement && t.classList.contains('icon-img')) markIcon(t, state);
    },
    true,
  );
}
// Images that settled before this script ran fired their events unheard.
for (const img of document.querySelectorAll<HTMLImageElement>('img.icon-img')) {
  if (!img.complete || !img.getAttribute('src')) continue;
  markIcon(img, img.naturalWidth > 0 ? 'loaded' : 'failed');
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
  const setOpen = (open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open));
    nav.dataset.open = String(open);
  };
  toggle.addEventListener('click', () => setOpen(toggle.getAttribute('aria-expanded') !== 'true'));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && toggle.getAttribute('aria-expanded') === 'true') {
      setOpen(false);
      toggle.focus();
    }
  });
  // Following a link closes the menu: an in-page one (Categories, /#categories) leaves this page
  // where it is, and the menu would stay open over the section it scrolled to. So does a page
  // brought back from the back/forward cache, which comes back as it was left.
  nav.addEventListener('click', (e) => {
    if (e.target instanceof Element && e.target.closest('a[href]')) setOpen(false);
  });
  // Tabbing on from the last link (or back past the toggle) closes it: the open menu covers the
  // page, and the focus would go on behind it, out of sight.
  document.addEventListener('focusin', (e) => {
    if (toggle.getAttribute('aria-expanded') !== 'true') return;
    if (e.target instanceof Node && (nav.contains(e.target) || toggle.contains(e.target))) return;
    setOpen(false);
  });
  window.addEventListener('hashchange', () => setOpen(false));
  window.addEventListener('pageshow', (e) => {
    if (e.persisted) setOpen(false);
  });
}

if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => {});
  });
}
