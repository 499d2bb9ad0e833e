import type { ClientDirective } from 'astro';

/**
 * What says a visitor has started on an island: a pointer over it (a head start on a desktop),
 * a touch, a press, a key, focus or input inside it.
 */
export const INTERACTION_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown', 'input'] as const;

/**
 * `client:interaction`: the island's code (React and the component) loads once the visitor starts
 * on it, not with the page. For the public forms: they work as plain HTML forms before their
 * script runs and keep what was typed when it does, so a visitor who only reads the page never
 * pays for React. A page opened with a query string hydrates at once: the query may carry what
 * the form shows at load (a no-JavaScript post's refusal or thanks, the premium call to action's
 * subject).
 */
const interaction: ClientDirective = (load, _options, el) => {
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    for (const type of INTERACTION_EVENTS) el.removeEventListener(type, start, true);
    const hydrate = await load();
    await hydrate();
  };
  if (location.search) {
    void start();
    return;
  }
  for (const type of INTERACTION_EVENTS) el.addEventListener(type, start, { capture: true, passive: true });
};

export default interaction;
