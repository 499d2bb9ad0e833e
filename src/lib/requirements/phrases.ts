/**
 * The phrase matcher behind the niche rules (#32): which words of a text match a rule's patterns,
 * as character ranges the console highlights. Pure; runs in the browser and the app alike.
 */

/** One match: `text.slice(start, end)` is the matched words. */
export interface PhraseMatch {
  start: number;
  end: number;
  /** The words as written in the text. */
  text: string;
}

/** A piece of a text for display: matched words are `hit`. */
export interface TextSegment {
  text: string;
  hit: boolean;
}

/**
 * Every match of `patterns` in `text`, in text order, never overlapping (of two overlapping
 * matches the earlier, then the longer, is kept). Patterns are matched case-insensitively,
 * whatever flags they were written with.
 */
export function matchPhrases(text: string, patterns: readonly RegExp[]): PhraseMatch[] {
  const found: PhraseMatch[] = [];
  for (const pattern of patterns) {
    const re = new RegExp(pattern.source, 'gi');
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      found.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: PhraseMatch[] = [];
  for (const match of found) {
    const last = kept.at(-1);
    if (last && match.start < last.end) continue;
    kept.push(match);
  }
  return kept;
}

/** `text` cut into plain and matched pieces (joined, they are the text again); matches as matchPhrases gives them. */
export function highlight(text: string, matches: readonly PhraseMatch[]): TextSegment[] {
  const out: TextSegment[] = [];
  let at = 0;
  for (const m of matches) {
    if (m.start < at || m.end > text.length) continue;
    if (m.start > at) out.push({ text: text.slice(at, m.start), hit: false });
    out.push({ text: text.slice(m.start, m.end), hit: true });
    at = m.end;
  }
  if (at < text.length) out.push({ text: text.slice(at), hit: false });
  return out;
}
