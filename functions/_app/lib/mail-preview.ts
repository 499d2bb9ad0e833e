import type { Context } from 'hono';
import { MAIL_PREVIEW_POLICY } from './security-headers';

/**
 * The headers of a mail's HTML as the console previews it in a frame: its own policy
 * (MAIL_PREVIEW_POLICY: inline styles, no script, framed by the site's own pages only), and
 * X-Frame-Options SAMEORIGIN to match, in place of the DENY every other page carries. The security
 * headers middleware keeps a header a handler set (middleware/security-headers.ts), on Node and on
 * the Worker alike, so neither is replaced by the console page's policy.
 */
export const MAIL_PREVIEW_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': MAIL_PREVIEW_POLICY,
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
});

/**
 * A mail's HTML part answered as it is (the mail templates escaped every text a user wrote; nothing
 * here unescapes or rewrites it), for the console's `<iframe src>`.
 */
export function mailPreview(c: Context, html: string): Response {
  return c.body(html, 200, { ...MAIL_PREVIEW_HEADERS });
}
