// The browser side of Cloudflare Turnstile that plain scripts and islands share (no framework).

/** The field the widget fills with its token, sent with the form. */
export const TURNSTILE_FIELD = 'cf-turnstile-response';

/** What the forms use of the global `turnstile` that Cloudflare's script defines. */
interface TurnstileApi {
  render(container: HTMLElement): string | null | undefined;
  reset(container: HTMLElement): void;
}

/** Cloudflare's script, once it has loaded. */
export const turnstileApi = (): TurnstileApi | undefined => (window as { turnstile?: TurnstileApi }).turnstile;

/** The form's widget token ('' when the form has no widget or it has not passed yet). */
export const turnstileToken = (form: HTMLFormElement): string => String(new FormData(form).get(TURNSTILE_FIELD) ?? '');

/**
 * A new challenge for the form's widget once its token has been sent: a token passes one check.
 * Nothing when the form has no widget or the script is not there.
 */
export function resetTurnstile(form: HTMLFormElement): void {
  const container = form.querySelector<HTMLElement>('.cf-turnstile');
  if (container) turnstileApi()?.reset(container);
}
