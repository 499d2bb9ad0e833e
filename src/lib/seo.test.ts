import { describe, expect, it } from 'vitest';
import { breadcrumbLd, itemListLd, pageTitle, publicPath, websiteLd } from './seo';

describe('pageTitle', () => {
  it('appends the site suffix to a plain title', () => {
    expect(pageTitle('Help Center')).toBe('Help Center | GuildRank');
  });
  it('leaves a title that already names the site alone', () => {
    expect(pageTitle('GuildRank: Best Discord Servers')).toBe('GuildRank: Best Discord Servers');
  });
});

describe('structured data', () => {
  it('points the SearchAction at the home search deep link', () => {
    const ld = websiteLd('https://guildrank.example');
    expect(ld.potentialAction.target.urlTemplate).toBe('https://guildrank.example/search?search={search_term_string}');
  });
  it('numbers list items and breadcrumbs from 1 with absolute URLs', () => {
    const list = itemListLd('https://g.example', 'Top', [{ name: 'A', slug: 'a' }]);
    expect(list.itemListElement[0]).toMatchObject({ position: 1, url: 'https://g.example/server/a' });
    const crumbs = breadcrumbLd('https://g.example', [
      { name: 'Home', href: '/' },
      { name: 'Gaming', href: '/best-gaming-discord' },
    ]);
    expect(crumbs.itemListElement[1]).toMatchObject({ position: 2, item: 'https://g.example/best-gaming-discord' });
  });
});

describe('publicPath', () => {
  it('maps the file names of a build to the URLs the site serves', () => {
    expect(publicPath('/index.html')).toBe('/');
    expect(publicPath('/help.html')).toBe('/help');
    expect(publicPath('/server/apex-legends-hub.html')).toBe('/server/apex-legends-hub');
    expect(publicPath('/best-crypto-discord/page/2.html')).toBe('/best-crypto-discord/page/2');
  });
  it('leaves URL paths (the dev server) as they are', () => {
    expect(publicPath('/')).toBe('/');
    expect(publicPath('/help')).toBe('/help');
    expect(publicPath('/server/html-hub')).toBe('/server/html-hub');
  });
});
