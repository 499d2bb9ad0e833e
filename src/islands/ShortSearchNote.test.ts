import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CLAIMS } from '~/lib/claims';
import { ShortSearchNote } from './ShortSearchNote';

const note = (term: string | undefined, exact: boolean) =>
  renderToStaticMarkup(createElement(ShortSearchNote, { term, exact }));

describe('the note under a short search', () => {
  it('says why when a search of one or two characters looked among the first servers only', () => {
    expect(note('qz', false)).toBe(`<p class="filter-note">${CLAIMS.shortSearch}</p>`);
    expect(note(' é ', false)).toContain(CLAIMS.shortSearch);
  });

  it('says nothing for an exact answer, a longer search or none', () => {
    expect(note('qz', true)).toBe('');
    expect(note('qzx', false)).toBe('');
    expect(note(undefined, false)).toBe('');
  });
});
