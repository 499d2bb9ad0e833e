// Site-wide behaviour shared by every page: mobile nav, icon fallback, service worker.

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
