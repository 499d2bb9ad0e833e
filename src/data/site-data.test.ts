import { describe, expect, it } from 'vitest';
import { mergeContent, text } from './site-data';

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
