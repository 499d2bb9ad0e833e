import { describe, expect, it } from 'vitest';
import { badgeSvg } from '../../../src/lib/badge/badge';
import { contentHash, renderedBadge } from './badge-render';

describe('renderedBadge', () => {
  it('draws what badgeSvg draws, with one ETag per content: another message or state is another tag', () => {
    const drawing = { label: 'GuildRank', message: '12.4K members', style: 'light' as const, unavailable: false };
    const first = renderedBadge(drawing);
    expect(first.svg).toBe(badgeSvg(drawing));
    expect(renderedBadge({ ...drawing })).toEqual(first);
    expect(first.etag).toMatch(/^"[0-9a-f]{14}"$/);
    const tags = new Set([
      first.etag,
      renderedBadge({ ...drawing, message: '12.5K members' }).etag,
      renderedBadge({ ...drawing, style: 'dark' }).etag,
      renderedBadge({ ...drawing, unavailable: true }).etag,
    ]);
    expect(tags.size).toBe(4);
  });

  it('hashes distinct texts apart', () => {
    const hashes = new Set(Array.from({ length: 10_000 }, (_, i) => contentHash(`${i} members · ${i % 97} online`)));
    expect(hashes.size).toBe(10_000);
  });
});
