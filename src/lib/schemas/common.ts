import { z } from 'zod';
import { SEARCH_UNSAFE_CHARS } from '../listing';
import { hasUserInfo, isPublicHostname } from '../url-safety';

// No generated code: zod otherwise probes `new Function('')` on first use, which the site's CSP
// (no 'unsafe-eval') refuses and reports as a violation on every page that validates a form.
z.config({ jitless: true });

/** C0/C1 control characters other than tab, newline and carriage return. */
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * The messages of a text field. With the field's label (a public form's, from labels.ts) each is
 * a sentence that names it ("Description needs at least 20 characters."); without one, the short
 * form the console shows beside its own fields.
 */
const textMessages = (min: number, max: number, label?: string) =>
  label
    ? {
        type: `${label} must be text.`,
        min: min === 1 ? `${label} is required.` : `${label} needs at least ${min} characters.`,
        max: `${label} can be at most ${max} characters.`,
        control: `${label} cannot contain control characters.`,
        oneLine: `${label} must fit on one line, without control characters.`,
      }
    : {
        type: 'Must be text',
        min: min === 1 ? 'Required' : `At least ${min} characters`,
        max: `At most ${max} characters`,
        control: 'Contains control characters',
        oneLine: 'Contains control characters',
      };

/** Trimmed text, length-limited, control characters refused; newlines only when `multiline`. */
function textField(max: number, min: number, label: string | undefined, multiline: boolean) {
  const m = textMessages(min, max, label);
  return z
    .string({ error: m.type })
    .trim()
    .min(min, m.min)
    .max(max, m.max)
    .refine((v) => !CONTROL_CHARS.test(v) && (multiline || !/[\r\n]/.test(v)), multiline ? m.control : m.oneLine);
}

/** Trimmed single-line text, length-limited, control characters refused; `label` names the field in messages. */
export const text = (max: number, min = 1, label?: string) => textField(max, min, label, false);

/** Trimmed multi-line text (newlines allowed), length-limited; `label` names the field in messages. */
export const longText = (max: number, min = 1, label?: string) => textField(max, min, label, true);

/** Optional text: empty strings and missing values become undefined. */
export const optionalText = (max: number, label?: string) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), longText(max, 1, label).optional());

/** An email address, lowercased. */
export const email = z
  .string({ error: 'Must be text' })
  .trim()
  .max(254, 'At most 254 characters')
  .pipe(z.email('Enter a valid email address'))
  .transform((v) => v.toLowerCase());

/** An email address a public form asks for, lowercased; `label` names the field in messages. */
export const labelledEmail = (label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(254, `${label} can be at most 254 characters.`)
    .pipe(z.email(`${label} must look like name@example.com.`))
    .transform((v) => v.toLowerCase());

/** An https: URL (javascript:, data: and plain http: are refused), with the message given. */
const httpsUrlWith = (message: string, label?: string) =>
  z
    .string({ error: label ? `${label} must be text.` : 'Must be text' })
    .trim()
    .max(2048, label ? `${label} can be at most 2048 characters.` : 'At most 2048 characters')
    .refine((v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'https:' && !!url.hostname && !/[\s<>"']/.test(v);
      } catch {
        return false;
      }
    }, message)
    .refine(
      (v) => !hasUserInfo(v),
      label
        ? `${label} must not carry a user name or password (user:pass@).`
        : 'Must not carry a user name or password (user:pass@)',
    );

/** An https: URL (javascript:, data: and plain http: are refused). */
export const httpsUrl = httpsUrlWith('Must be an https:// URL');

/**
 * An image URL that browsers will load (a listing's icon): https, and a public host, never an
 * IP literal, localhost or an internal name. `label` names the field in the message.
 */
export const publicImageUrl = (label: string) =>
  httpsUrlWith(`${label} must be a full https:// address, like https://example.com/icon.png.`, label).refine((v) => {
    try {
      return isPublicHostname(new URL(v).hostname);
    } catch {
      // httpsUrl has already said why.
      return true;
    }
  }, `${label} must be on a public website: IP addresses, localhost and internal hosts are not allowed`);

/** The icons the project ships for its sample servers (public/icons/servers/), served by the site itself. */
export const SHIPPED_ICON_PATH = /^\/icons\/servers\/[a-z0-9][a-z0-9-]*\.(svg|png|webp)$/;

/**
 * A listing's icon as the console stores it: an icon the project ships (site-relative,
 * `/icons/servers/<name>.svg`, what the sample servers hold) or a public https image
 * (publicImageUrl, with its messages).
 */
export const listingIconUrl = (label: string) => {
  const external = publicImageUrl(label);
  return z
    .string({ error: `${label} must be text.` })
    .trim()
    .superRefine((value, ctx) => {
      if (SHIPPED_ICON_PATH.test(value)) return;
      const result = external.safeParse(value);
      if (!result.success)
        for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    });
};

/** A search query parameter: trimmed, length-limited, control characters refused (400 naming it). */
export const searchText = (max: number) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `At most ${max} characters`)
    .refine((v) => v.search(SEARCH_UNSAFE_CHARS) === -1, 'Search text cannot contain control characters')
    .optional();

/** A whole, non-negative count; unparsable input becomes 0, as the submit form's counts do. */
export const count = z.preprocess((v) => {
  // Only a number or a string is read: String() of a JSON object whose toString is not a function
  // ({"toString":{}}) throws, which was a 500.
  const n =
    typeof v === 'number' ? v : typeof v === 'string' ? Number.parseInt(v.replace(/[,\s_]/g, ''), 10) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? Math.min(Math.trunc(n), 1_000_000_000) : 0;
}, z.number().int().min(0));

/** Checkbox values from JSON (boolean) or forms ('on', 'true', '1'). */
export const checkbox = z.preprocess(
  (v) => v === true || v === 'on' || v === 'true' || v === '1' || v === 1,
  z.boolean(),
);

/**
 * Honeypot: a field humans never see. Any value marks the body as automated.
 * Kept in the schema so a filled one is a validation error, never a stored row.
 */
export const honeypot = z.string().max(0, 'Leave this field empty').optional().or(z.undefined());

/** Name of the honeypot field on every public form. */
export const HONEYPOT_FIELD = 'website';
