import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FiltersFold } from './FiltersFold';
import ListingSearch from './ListingSearch';

describe('the Filters fold', () => {
  it('is a plain <details> whose summary says how many filters are set', () => {
    const fold = (setCount: number) =>
      renderToStaticMarkup(createElement(FiltersFold, { setCount }, createElement('p', null, 'controls')));
    expect(fold(0)).toBe('<details class="filters-fold"><summary>Filters</summary><p>controls</p></details>');
    expect(fold(2)).toContain('<summary>Filters<span class="filters-count"> (2 set)</span></summary>');
  });

  it('holds a listing page’s filters and order, the search box outside it (a 320 px toolbar was five rows)', () => {
    const html = renderToStaticMarkup(createElement(ListingSearch, { category: 'Investing', label: 'Investing' }));
    const fold = /<details class="filters-fold[^"]*"><summary>Filters<\/summary>(.*?)<\/details>/s.exec(html)?.[1];
    expect(fold).toBeDefined();
    for (const part of [
      'Premium Only',
      'Checked in the last 24 hours',
      'name="size"',
      'name="sort"',
      'How ranking works',
    ])
      expect(fold).toContain(part);
    expect(fold).not.toContain('type="search"');
    expect(html).toContain('type="search"');
  });
});
