import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeSpans } from './schema-view';

describe('codeSpans', () => {
  it('splits the document’s CommonMark code spans from the text around them', () => {
    // The descriptions are CommonMark: /developers printed their backticks as they are.
    expect(codeSpans('A category name (`Crypto`, any case) or `All`.')).toEqual([
      { code: false, text: 'A category name (' },
      { code: true, text: 'Crypto' },
      { code: false, text: ', any case) or ' },
      { code: true, text: 'All' },
      { code: false, text: '.' },
    ]);
    expect(codeSpans('`true`: premium only')).toEqual([
      { code: true, text: 'true' },
      { code: false, text: ': premium only' },
    ]);
    expect(codeSpans('')).toEqual([]);
  });

  it('keeps an unmatched backtick as text, and loses or adds no character', () => {
    expect(codeSpans('a ` b')).toEqual([{ code: false, text: 'a ` b' }]);
    expect(codeSpans('`a` and ` alone')).toEqual([
      { code: true, text: 'a' },
      { code: false, text: ' and ` alone' },
    ]);
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '`', 'x', '.') }), (s) => {
        const parts = codeSpans(s);
        expect(parts.map((p) => (p.code ? `\`${p.text}\`` : p.text)).join('')).toBe(s);
        for (const p of parts) {
          expect(p.text.length).toBeGreaterThan(0);
          if (p.code) expect(p.text).not.toContain('`');
        }
      }),
    );
  });
});
