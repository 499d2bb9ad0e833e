import { describe, expect, it } from 'vitest';
import { answerMiss, movedTo } from './site-redirects';

describe('answerMiss (Node static handler and Worker alike)', () => {
  it('answers a moved path with a 301 that keeps the query', () => {
    expect(answerMiss('https://x.example/server/old?ref=a&b=1', '/server/old', '/server/new')).toEqual({
      kind: 'redirect',
      location: '/server/new?ref=a&b=1',
    });
  });

  it("answers anything else with its URL shape's screen and the asked-for slug, decoded and escaped", () => {
    expect(answerMiss('https://x.example/server/%3Cb%3Ex', '/server/%3Cb%3Ex', null)).toEqual({
      kind: 'screen',
      page: '/server-not-found',
      slug: '&lt;b&gt;x',
    });
    expect(answerMiss('https://x.example/best-nope-discord', '/best-nope-discord', null)).toMatchObject({
      page: '/category-not-found',
    });
    expect(answerMiss('https://x.example/server/%E0%A4%A', '/server/%E0%A4%A', null)).toMatchObject({
      slug: '%E0%A4%A',
    });
    // A listing's reviews page names the listing's slug, not its last segment.
    expect(answerMiss('https://x.example/server/gone/reviews?before=k', '/server/gone/reviews', null)).toEqual({
      kind: 'screen',
      page: '/server-not-found',
      slug: 'gone',
    });
  });
});

describe('movedTo', () => {
  it('treats a failing lookup as not moved', async () => {
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(await movedTo(() => Promise.reject(new Error('database away')), '/server/x')).toBeNull();
    } finally {
      console.warn = warn;
    }
    expect(await movedTo(undefined, '/server/x')).toBeNull();
    expect(await movedTo(async () => '/servers', '/servers/page/9')).toBe('/servers');
  });
});
