/** Longest slug we store; longer names are cut at a word boundary. */
export const SLUG_MAX = 50;

/** Words the server-slug variant drops: the, and, or, but, in, on, at, to, for, of, with, by. */
const STOP_WORDS = new Set(['the', 'and', 'or', 'but', 'in', 'on', 'at', 'to', 'for', 'of', 'with', 'by']);

/** Keeps whole words while the joined slug fits SLUG_MAX; a single over-long word is cut. */
function fitWords(words: string[]): string {
  let out = '';
  for (const word of words) {
    const next = out ? `${out}-${word}` : word;
    if (next.length > SLUG_MAX) break;
    out = next;
  }
  return out || (words[0] ?? '').slice(0, SLUG_MAX);
}

/**
 * Generic slug: lowercase, trimmed, runs of non-alphanumerics become one hyphen,
 * no leading or trailing hyphen, at most 50 characters. Returns '' when nothing is left.
 */
export function slugify(input: string): string {
  const words = input
    .toLowerCase()
    .trim()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return fitWords(words);
}

/**
 * Server-slug variant: drops stop words, strips punctuation, collapses hyphens,
 * prefixes 'server-' when shorter than 3 characters, at most 50 characters, 'server' when empty.
 */
export function serverSlug(name: string): string {
  const words = name
    .toLowerCase()
    .trim()
    // Punctuation is removed, not turned into a separator ("Bob's" -> "bobs").
    .replace(/['’`".,!?:;()[\]{}]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w && !STOP_WORDS.has(w));
  const slug = fitWords(words);
  if (!slug) return 'server';
  return slug.length < 3 ? `server-${slug}` : slug;
}

/**
 * The variants a stored slug may have been generated from, most specific first:
 * the name slug, the server-slug variant, the name without a trailing generic word,
 * alphanumerics only, and the first word. Used by the slug-lookup fallback.
 */
export function slugVariants(name: string): string[] {
  const base = slugify(name);
  const trimmed = slugify(name.replace(/\s+(server|discord|community|hub|group)\s*$/i, ''));
  const variants = [base, serverSlug(name), trimmed, base.replace(/-/g, ''), base.split('-')[0] ?? ''];
  return [...new Set(variants.filter(Boolean))];
}
