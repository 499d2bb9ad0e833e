import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  categoryPath,
  getCategoryBySlug,
  getSubcategory,
  isListedCategory,
  SUBCATEGORIES,
  subcategoriesOf,
  subcategoryPath,
} from './categories';

describe('categories', () => {
  it('defines the five niches with their slugs and advertised sizes', () => {
    expect(CATEGORIES.map((c) => [c.slug, c.approxMembers])).toEqual([
      ['gaming', '1.2M+'],
      ['crypto', '850K+'],
      ['trading', '720K+'],
      ['sports-betting', '290K+'],
      ['investing', '180K+'],
    ]);
    expect(categoryPath('sports-betting')).toBe('/best-sports-betting-discord');
    expect(getCategoryBySlug('crypto')?.name).toBe('Crypto');
  });

  it('defines the 21 subcategory pages of the spec, none for gaming', () => {
    expect(SUBCATEGORIES).toHaveLength(21);
    expect(subcategoriesOf('gaming')).toHaveLength(0);
    expect(subcategoriesOf('sports-betting').map((s) => s.slug)).toEqual(
      ['nfl', 'nba', 'mlb', 'nhl', 'soccer', 'tennis', 'mma'].map((s) => `${s}-betting-discord`),
    );
    expect(subcategoriesOf('investing').map((s) => s.slug)).toEqual([
      'stocks-discord',
      'forex-discord',
      'options-discord',
      'day-trading-discord',
    ]);
    expect(subcategoriesOf('trading')).toHaveLength(5);
    expect(subcategoriesOf('crypto')).toHaveLength(5);
  });

  it('gives every subcategory its parent category and slug', () => {
    const sub = getSubcategory('investing', 'day-trading-discord');
    expect(sub).toMatchObject({ parentCategory: 'Investing', parentSlug: 'investing', key: 'day-trading' });
    expect(subcategoryPath(sub!)).toBe('/best-investing-discord/day-trading-discord');
    for (const s of SUBCATEGORIES) expect(getCategoryBySlug(s.parentSlug)?.name).toBe(s.parentCategory);
  });

  it('lists only the five categories (Education is filtered out)', () => {
    expect(isListedCategory('Gaming')).toBe(true);
    expect(isListedCategory('Education')).toBe(false);
  });
});

describe('category colours in global.css', () => {
  it('has a cat-bg class per category with its gradient (style attributes are refused by the CSP)', () => {
    const css = readFileSync(new URL('../styles/global.css', import.meta.url), 'utf8');
    for (const c of CATEGORIES) {
      const rule = css.match(new RegExp(`\\.cat-bg-${c.slug} \\{([^}]*)\\}`))?.[1] ?? '';
      expect(rule, c.slug).toContain(`--hero-bg: ${c.gradient};`);
      expect(rule, c.slug).toContain(`--tile-bg: ${c.gradient};`);
    }
  });
});
