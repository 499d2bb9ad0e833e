/**
 * The "listed on GuildRank" badge (#33): a small SVG in the shields.io shape (a label box and a
 * message box side by side) with live numbers. Pure: the route reads the listing, this writes the
 * picture. No I/O, no clock.
 */

import type { InviteStatus } from '../enums';
import { formatMembers } from '../format';
import { isListed } from '../listing';

/** What the message says: both counts (default), one of them, the rank in its category, or the rating. */
export const BADGE_VARIANTS = ['default', 'members', 'online', 'rank', 'rating'] as const;
export type BadgeVariant = (typeof BADGE_VARIANTS)[number];

/** The colour scheme: light (for light pages) or dark (for dark READMEs and sites). */
export const BADGE_STYLES = ['light', 'dark'] as const;
export type BadgeStyle = (typeof BADGE_STYLES)[number];

/** The label every badge carries. */
export const BADGE_LABEL = 'GuildRank';
/** The message of a listing that cannot be shown: hidden, removed, unknown, or its invite dead. */
export const BADGE_UNAVAILABLE = 'unavailable';
/** What the rating variant says until at least 3 member reviews of the listing show (#31). */
export const BADGE_NO_REVIEWS = 'no reviews yet';

/** The listing as a badge knows it. */
export interface BadgeListing {
  is_active: boolean;
  category: string;
  invite_status: InviteStatus;
  members: number;
  active_users: number;
}

/** A listing's place in its category by score (Most Active), when it has one. */
export interface BadgePlace {
  rank: number;
  of: number;
}

/**
 * Whether a listing's badge shows numbers: it is listed (active, a listed category, an invite that
 * is not dead or another guild's). Anything else is the grey "unavailable" badge.
 */
export const badgeShowsNumbers = (listing: BadgeListing | null): listing is BadgeListing =>
  listing !== null && isListed(listing);

/**
 * The message of a badge: "12.4K members · 1.9K online", "12.4K members", "1.9K online",
 * "#3 in Gaming", the rating (fewer than 3 reviews: "no reviews yet"), or "unavailable". Counts are written as
 * the site writes them on cards (formatMembers). `place` is read only for the rank variant.
 */
export function badgeMessage(
  listing: BadgeListing | null,
  variant: BadgeVariant,
  place?: BadgePlace | undefined,
  rating: number | null = null,
): string {
  if (!badgeShowsNumbers(listing)) return BADGE_UNAVAILABLE;
  const members = `${formatMembers(listing.members)} members`;
  const online = `${formatMembers(listing.active_users)} online`;
  switch (variant) {
    case 'members':
      return members;
    case 'online':
      return online;
    case 'rank':
      return place ? `#${place.rank} in ${listing.category}` : `not ranked in ${listing.category} yet`;
    case 'rating':
      return rating === null ? BADGE_NO_REVIEWS : `${rating.toFixed(1)} / 5`;
    default:
      return `${members} · ${online}`;
  }
}

/** The colours of a badge by style: the label box, the message box and the text of each. */
const COLOURS: Record<BadgeStyle, { label: string; labelText: string; message: string; messageText: string }> = {
  // The site's indigo (#6366f1 is the theme colour; this darker one keeps white text at 4.5:1).
  light: { label: '#555', labelText: '#fff', message: '#4f46e5', messageText: '#fff' },
  dark: { label: '#1f2937', labelText: '#f9fafb', message: '#a5b4fc', messageText: '#111827' },
};
/** The grey of an unavailable badge (white text on it keeps 4.5:1). */
const UNAVAILABLE_COLOUR = '#6b7280';

/**
 * Widths of characters in Verdana 11 px (what shields.io measures its text with), in px; other
 * characters count as the widest lower-case letter. Close enough that the boxes fit their text.
 */
const WIDTHS: Record<string, number> = {
  ' ': 3.9,
  '#': 9,
  '.': 4.4,
  '/': 4.9,
  '·': 4.4,
  '-': 4.6,
  ',': 4.4,
  ':': 4.4,
  '(': 5.5,
  ')': 5.5,
  '0': 7,
  '1': 7,
  '2': 7,
  '3': 7,
  '4': 7,
  '5': 7,
  '6': 7,
  '7': 7,
  '8': 7,
  '9': 7,
  a: 6.7,
  b: 6.9,
  c: 5.8,
  d: 6.9,
  e: 6.7,
  f: 3.9,
  g: 6.9,
  h: 7,
  i: 3,
  j: 3.8,
  k: 6.5,
  l: 3,
  m: 10.7,
  n: 7,
  o: 6.7,
  p: 6.9,
  q: 6.9,
  r: 4.7,
  s: 5.7,
  t: 4.3,
  u: 7,
  v: 6.5,
  w: 9,
  x: 6.5,
  y: 6.5,
  z: 5.8,
  A: 7.5,
  B: 7.5,
  C: 7.7,
  D: 8.5,
  E: 7,
  F: 6.3,
  G: 8.5,
  H: 8.4,
  I: 4.6,
  J: 5,
  K: 7.6,
  L: 6.1,
  M: 9.3,
  N: 8.2,
  O: 8.7,
  P: 6.6,
  Q: 8.7,
  R: 7.7,
  S: 7.5,
  T: 6.8,
  U: 8.1,
  V: 7.5,
  W: 10.9,
  X: 7.5,
  Y: 6.8,
  Z: 7.5,
};

/** The width of a text in Verdana 11 px, rounded up. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += WIDTHS[ch] ?? 10.7;
  return Math.ceil(w);
}

/** Escapes text for XML content and attribute values. */
export const xmlEscape = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[ch]};`);

/** A badge to draw: its label, its message and its look. */
export interface BadgeDrawing {
  label: string;
  message: string;
  style: BadgeStyle;
  /** Grey message box: the listing is unavailable. */
  unavailable: boolean;
}

/**
 * The SVG of a badge, shields.io's "flat" shape: 20 px high, two boxes with 6 px of padding either
 * side of their text, rounded corners, a faint gradient; `role="img"`, an `aria-label` and a
 * `<title>` give screen readers "GuildRank: 12.4K members · 1.9K online".
 */
export function badgeSvg({ label, message, style, unavailable }: BadgeDrawing): string {
  const c = COLOURS[style];
  const messageFill = unavailable ? UNAVAILABLE_COLOUR : c.message;
  const messageText = unavailable ? '#fff' : c.messageText;
  const labelW = textWidth(label) + 12;
  const messageW = textWidth(message) + 12;
  const width = labelW + messageW;
  const title = xmlEscape(`${label}: ${message}`);
  const l = xmlEscape(label);
  const m = xmlEscape(message);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" viewBox="0 0 ${width} 20" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>`,
    '<g clip-path="url(#r)">',
    `<rect width="${labelW}" height="20" fill="${c.label}"/>`,
    `<rect x="${labelW}" width="${messageW}" height="20" fill="${messageFill}"/>`,
    `<rect width="${width}" height="20" fill="url(#s)"/>`,
    '</g>',
    '<g text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11" text-rendering="geometricPrecision">',
    `<text x="${labelW / 2}" y="14" fill="${c.labelText}" data-part="label">${l}</text>`,
    `<text x="${labelW + messageW / 2}" y="14" fill="${messageText}" data-part="message">${m}</text>`,
    '</g>',
    '</svg>',
  ].join('');
}
