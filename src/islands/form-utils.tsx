// The forms' summary box and the reading of what a form already shows (each field is a Field,
// ./Field.tsx). A form island hydrates a form the visitor may have typed into already (on a slow
// phone the HTML comes seconds before the script), or one the server sent back filled in after a
// refused post without JavaScript (functions/_app/lib/form-page.ts). So the fields are
// uncontrolled, their first values are read from the page, and the messages sit in fixed slots
// the server can fill: a field's in `[data-error-for]`, the summary in `[data-form-alert-text]`
// inside `[data-form-alert]`.

import { useState } from 'react';
import { fieldErrors, refusalOf, type WriteAnswer } from '~/lib/api-client';
import { resetTurnstile } from '~/lib/turnstile';
import { fieldIds } from './Field';

/**
 * A form island's sending and messages, starting from what the page shows (`page`). `send(form,
 * post, onStored)` clears the messages, sends with `post`, and runs `onStored` once the write is
 * stored; a refusal shows the envelope's summary above the fields (`failed` when it has none) and
 * each refused field's message under it, with the first of them focused (its label and message
 * are read first). Either way the form's Turnstile widget starts a new challenge.
 */
export function useSending(
  idPrefix: string,
  failed: string,
  page: { errors: Record<string, string>; failure: string },
) {
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState(page.errors);
  const [failure, setFailure] = useState(page.failure);
  async function send(form: HTMLFormElement, post: () => Promise<WriteAnswer>, onStored: () => void) {
    setSending(true);
    setFailure('');
    setErrors({});
    try {
      const error = await refusalOf(post());
      if (!error) onStored();
      else {
        const fields = fieldErrors(error);
        setErrors(fields);
        setFailure(error.message || failed);
        const first = Object.keys(fields)[0];
        if (first) document.getElementById(fieldIds(idPrefix, first).id)?.focus();
      }
    } catch {
      setFailure(failed);
    } finally {
      setSending(false);
      resetTurnstile(form);
    }
  }
  return { sending, errors, failure, setErrors, setFailure, send };
}

/** The box above a form's fields that says why it was refused; hidden while there is nothing to say. */
export function FormAlert({ title, text }: { title?: string; text: string }) {
  return (
    <div className="alert alert-error" role="alert" data-form-alert hidden={!text}>
      {title ? <strong>{title}</strong> : null}
      <p className="flush" data-form-alert-text>
        {text}
      </p>
    </div>
  );
}

/** What a form on the page shows before its island's first render. */
export interface RenderedForm {
  /** The fields' current values (FormData: checked boxes only). */
  data: FormData;
  /** Field name to the message in its slot. */
  errors: Record<string, string>;
  /** The summary, '' when its box is hidden. */
  summary: string;
}

/**
 * Reads the form whose action is `action` as the page shows it (typed into before the script
 * came, or sent back filled in by the server); null on the server and once the form is gone.
 */
export function renderedForm(action: string): RenderedForm | null {
  if (typeof document === 'undefined') return null;
  const form = document.querySelector<HTMLFormElement>(`form[action="${action}"]`);
  if (!form) return null;
  const errors: Record<string, string> = {};
  for (const slot of form.querySelectorAll<HTMLElement>('[data-error-for]')) {
    const text = slot.textContent?.trim() ?? '';
    if (!slot.hidden && text && slot.dataset.errorFor) errors[slot.dataset.errorFor] = text;
  }
  const alert = form.querySelector<HTMLElement>('[data-form-alert]');
  const summary =
    alert && !alert.hidden ? (alert.querySelector('[data-form-alert-text]')?.textContent?.trim() ?? '') : '';
  return { data: new FormData(form), errors, summary };
}

/** A text field of a FormData ('' when absent). */
export const textOf = (data: FormData, name: string): string => {
  const v = data.get(name);
  return typeof v === 'string' ? v : '';
};

/** `value` when it is one of `options`, else `fallback`: a select's value, typed as its options. */
export const oneOf = <T extends string>(options: readonly T[], value: string, fallback: T): T =>
  options.find((o) => o === value) ?? fallback;
