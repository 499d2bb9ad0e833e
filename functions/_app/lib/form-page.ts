// A refused form post from a browser without JavaScript is answered with the form's own page,
// filled in: what the visitor typed, each field's message and the summary above the fields. The
// page is the built one (the same HTML a visit gets), changed only inside the form, so the island
// that later hydrates it finds the same markup it renders for those values and messages.
//
// The markup conventions this relies on (src/islands/form-utils.tsx, NewsletterForm.astro):
// - controls carry `name`; an `id` of `<prefix>-<name>` is optional;
// - a field's message goes in `<p … data-error-for="<name>" hidden></p>`, an empty leaf;
// - the summary goes in the leaf marked `data-form-alert-text`, inside (or on) the element marked
//   `data-form-alert`, which is hidden until there is something to say.
// Attribute values in built HTML are always quoted and escaped (Astro and React both escape `"`,
// `<` and `>`), so a tag ends at the first `>`.
import { escapeHtml } from './html';

/** Fields never written back into a page: the honeypot, the bot check's token. */
const NEVER_ECHOED = new Set(['website', 'cf-turnstile-response']);

/** What to show in a refused form. */
export interface FormProblem {
  /** The posted body (a form body: strings, or arrays of them for repeated names). */
  values: Readonly<Record<string, unknown>>;
  /** Field name to its message. */
  errors: Readonly<Record<string, string>>;
  /** The sentence above the fields. */
  summary: string;
}

const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? m[1] : undefined;
};
const hasAttr = (tag: string, name: string): boolean => new RegExp(`\\s${name}(?:="[^"]*")?(?=[\\s/>])`).test(tag);
const dropAttr = (tag: string, name: string): string =>
  tag.replace(new RegExp(`\\s${name}(?:="[^"]*")?(?=[\\s/>])`), '');
/** The tag with `name` set to `value` (added before the tag's end when missing). */
const setAttr = (tag: string, name: string, value: string): string => {
  const escaped = escapeHtml(value);
  if (hasAttr(tag, name)) return tag.replace(new RegExp(`\\s${name}(?:="[^"]*")?(?=[\\s/>])`), ` ${name}="${escaped}"`);
  return tag.replace(/\s*(\/?)>$/, ` ${name}="${escaped}"$1>`);
};
const decode = (s: string): string =>
  s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );

/** The posted values of a name, as strings. */
const posted = (values: FormProblem['values'], name: string): string[] => {
  const v = values[name];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return typeof v === 'string' ? [v] : [];
};

/**
 * The page with the form whose action is `action` filled in with `problem`; null when the page
 * has no such form (the caller then answers the plain redirect).
 */
export function fillFormPage(html: string, action: string, problem: FormProblem): string | null {
  const open = new RegExp(`<form\\b[^>]*\\saction="${action.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"[^>]*>`).exec(
    html,
  );
  if (!open) return null;
  const start = open.index + open[0].length;
  const end = html.indexOf('</form>', start);
  if (end === -1) return null;
  const form = fillForm(html.slice(start, end), problem);
  const page = html.slice(0, start) + form + html.slice(end);
  // The tab says so too, before the page title (a screen reader reads it first).
  return page.replace(/<title>/, '<title>Error: ');
}

function fillForm(form: string, { values, errors, summary }: FormProblem): string {
  // Each field's message into its slot; the slot's id is what the control is described by.
  const slotIds: Record<string, string> = {};
  let out = form.replace(
    /(<(\w+)\b[^>]*\sdata-error-for="([^"]*)"[^>]*>)([^<]*)(<\/\2>)/g,
    (whole, tag: string, _el: string, name: string, _text: string, close: string) => {
      const id = attr(tag, 'id');
      if (id) slotIds[name] = id;
      const message = errors[name];
      return message ? `${dropAttr(tag, 'hidden')}${escapeHtml(message)}${close}` : whole;
    },
  );

  // The summary: its box shown, its text filled.
  let alertId: string | undefined;
  out = out.replace(/<\w+\b[^>]*\sdata-form-alert(?:="[^"]*")?(?=[\s/>])[^>]*>/, (tag) => {
    alertId = attr(tag, 'id');
    return dropAttr(tag, 'hidden');
  });
  out = out.replace(
    /(<(\w+)\b[^>]*\sdata-form-alert-text(?:="[^"]*")?(?=[\s/>])[^>]*>)[^<]*(<\/\2>)/,
    (_whole, tag: string, _el: string, close: string) => `${dropAttr(tag, 'hidden')}${escapeHtml(summary)}${close}`,
  );

  // The controls: values back in, the refused ones marked and described by their message.
  let focused = false;
  return out.replace(
    /<input\b[^>]*>|<(textarea|select)\b[^>]*>([\s\S]*?)(<\/\1>)/g,
    (whole, pair: string | undefined, inner: string | undefined, close: string | undefined) => {
      const el = pair ?? 'input';
      const tagEnd = whole.indexOf('>') + 1;
      let tag = whole.slice(0, tagEnd);
      const name = attr(tag, 'name');
      if (!name || NEVER_ECHOED.has(name)) return whole;
      const type = (attr(tag, 'type') ?? 'text').toLowerCase();
      if (['hidden', 'password', 'submit', 'button', 'reset', 'file', 'image'].includes(type)) return whole;
      const sent = posted(values, name);
      let body = inner ?? '';
      if (el === 'input' && (type === 'checkbox' || type === 'radio')) {
        const value = decode(attr(tag, 'value') ?? 'on');
        tag = sent.includes(value)
          ? hasAttr(tag, 'checked')
            ? tag
            : setAttr(tag, 'checked', '')
          : dropAttr(tag, 'checked');
      } else if (el === 'input') {
        tag = setAttr(tag, 'value', sent[0] ?? '');
      } else if (el === 'textarea') {
        // A newline right after <textarea> is dropped by the parser: a value starting with one keeps it.
        const text = sent[0] ?? '';
        body = (text.startsWith('\n') ? '\n' : '') + escapeHtml(text);
      } else if (el === 'select') {
        body = body.replace(/<option\b[^>]*>/g, (option) => {
          const value = decode(attr(option, 'value') ?? '');
          return sent.includes(value)
            ? setAttr(dropAttr(option, 'selected'), 'selected', '')
            : dropAttr(option, 'selected');
        });
      }
      if (errors[name]) {
        tag = setAttr(tag, 'aria-invalid', 'true');
        const describer = slotIds[name] ?? alertId;
        if (describer) {
          const others = (attr(tag, 'aria-describedby') ?? '').split(/\s+/).filter((id) => id && id !== describer);
          tag = setAttr(tag, 'aria-describedby', [describer, ...others].join(' '));
        }
        // The first refused field takes the focus, so its label and message are read first.
        if (!focused) {
          focused = true;
          tag = setAttr(tag, 'autofocus', '');
        }
      }
      return pair === undefined ? tag : tag + body + (close ?? '');
    },
  );
}
