import { type BadgeDrawing, badgeSvg } from '../../../src/lib/badge/badge';

/** Distinct drawings kept (the most recently used); a drawing is a few hundred bytes of SVG. */
const KEPT = 5_000;

const drawn = new Map<string, { svg: string; etag: string }>();

/**
 * A 53-bit hash of a string (cyrb53: two 32-bit multiply-xor lanes), as 14 hex digits: the
 * badge's ETag. Not a digest against an adversary, only a name for content the server wrote;
 * synchronous and the same on Node and the Worker. Hono's etag() hashed every answer with
 * WebCrypto's SHA-1 instead, the largest cost of a badge in the profile (bench: Badges).
 */
export function contentHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/**
 * A badge's SVG and its strong ETag, drawn once per distinct drawing (label, message, style,
 * state) and kept while it is among the KEPT most recently used. Keyed by everything the SVG is
 * drawn from, so a kept one is never out of date: a listing whose numbers change draws anew.
 */
export function renderedBadge(drawing: BadgeDrawing): { svg: string; etag: string } {
  const key = `${drawing.style}\u0000${drawing.unavailable ? 1 : 0}\u0000${drawing.label}\u0000${drawing.message}`;
  const known = drawn.get(key);
  if (known) {
    // Most recently used last: the oldest is the first a full map lets go.
    drawn.delete(key);
    drawn.set(key, known);
    return known;
  }
  const svg = badgeSvg(drawing);
  const rendered = { svg, etag: `"${contentHash(svg)}"` };
  drawn.set(key, rendered);
  if (drawn.size > KEPT) drawn.delete(drawn.keys().next().value!);
  return rendered;
}
