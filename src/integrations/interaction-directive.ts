import type { ClientDirective } from 'astro';

/**
 * What says a visitor has started on an island: a pointer over it (a head start on a desktop),
 * a touch, a press, a key, focus or input inside it.
 */
export const INTERACTION_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;

/**
 * `client:interaction`: the island's code (React and the component) loads once the visitor starts
 * on it, not with the page. For islands that show their content as HTML and whose fields work
 * before their script runs (the forms keep what was typed; a listing's built grid): a visitor who
 * only reads the page never pays for React. A page opened with a query string hydrates at once:
 * the query may carry what the island shows at load (a no-JavaScript post's refusal or thanks,
 * a shared listing's search or sort). A click on one of the island's script buttons (`type=button`:
 * a filter chip, the carousel's arrows) made while its code was loading did nothing then; it is
 * clicked again once the island has hydrated, so the first tap on a phone is not lost.
 */
const interaction: ClientDirective = (load, _options, el) => {
  let started = false;
  let hydrated = false;
  const clicked: HTMLButtonElement[] = [];
  const remember = (e: Event) => {
    const button = e.target instanceof Element ? e.target.closest('button') : null;
    if (!hydrated && button?.type === 'button' && el.contains(button)) clicked.push(button);
  };
  el.addEventListener('click', remember, true);
  const start = async () => {
    if (started) return;
    started = true;
    for (const type of INTERACTION_EVENTS) el.removeEventListener(type, start, true);
    const hydrate = await load();
    await hydrate();
    hydrated = true;
    el.removeEventListener('click', remember, true);
    for (const button of clicked.splice(0)) if (button.isConnected) button.click();
  };
  if (location.search) {
    void start();
    return;
  }
  for (const type of INTERACTION_EVENTS) el.addEventListener(type, start, { capture: true, passive: true });
};

export default interaction;
