import { describe, expect, it } from 'vitest';
import { mergeContent, serversInCategory, serversInSubcategory, text } from './site-data';

describe('mergeContent', () => {
  it('falls back to the code defaults when site_content has no row', () => {
    const content = mergeContent([]);
    expect(text(content, 'home.hero.heading')).toBe('Find the Best Discord Servers');
  });
  it('lets an operator override a text, but not with a blank value', () => {
    const content = mergeContent([
      { page: 'home', section: 'hero', content_key: 'heading', content_value: 'Discord, ranked' },
      { page: 'global', section: 'footer', content_key: 'tagline', content_value: '   ' },
    ]);
    expect(text(content, 'home.hero.heading')).toBe('Discord, ranked');
    expect(text(content, 'global.footer.tagline')).toMatch(/honest directory/);
  });
});

describe('serversInSubcategory', () => {
  it('matches the key with hyphens as spaces, case-insensitively, within the category', () => {
    const rows = [
      { category: 'Investing', subcategory: 'Day Trading' },
      { category: 'Trading', subcategory: 'Day Trading' },
      { category: 'Investing', subcategory: 'Stocks' },
    ] as Parameters<typeof serversInSubcategory>[0];
    expect(serversInSubcategory(rows, 'Investing', 'day-trading')).toHaveLength(1);
  });
});

describe('serversInCategory', () => {
  it('keeps the listing order within each category and knows no other categories', () => {
    const rows = [
      { id: 1, category: 'Gaming' },
      { id: 2, category: 'Crypto' },
      { id: 3, category: 'Gaming' },
    ] as Parameters<typeof serversInCategory>[0];
    expect(serversInCategory(rows, 'Gaming').map((s) => s.id)).toEqual([1, 3]);
    expect(serversInCategory(rows, 'Crypto').map((s) => s.id)).toEqual([2]);
    expect(serversInCategory(rows, 'Investing')).toEqual([]);
  });
  it('answers for the list it is given, not an earlier one', () => {
    const before = [{ id: 1, category: 'Gaming' }] as Parameters<typeof serversInCategory>[0];
    const after = [{ id: 2, category: 'Gaming' }] as Parameters<typeof serversInCategory>[0];
    expect(serversInCategory(before, 'Gaming').map((s) => s.id)).toEqual([1]);
    expect(serversInCategory(after, 'Gaming').map((s) => s.id)).toEqual([2]);
  });
});
