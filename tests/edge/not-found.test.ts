import { describe, expect, it } from 'vitest';
import { edgeNotFoundPage } from '../../functions/_app/edge';
import { notFoundPage } from '../../functions/_app/static';

describe('not-found screens at the edge', () => {
  it('picks the same screen as the Node static handler for every URL shape', () => {
    const paths = [
      '/best-gaming-discord',
      '/best-gaming-discord/',
      '/best-nope-discord',
      '/best-gaming-discord/fps',
      '/best-gaming-discord/nope/extra',
      '/server/some-guild',
      '/server/',
      '/nothing-here',
      '/a/b/c',
      '/',
    ];
    for (const path of paths) {
      // The edge asks the assets binding for the page's URL, the Node handler for its file.
      const edge = edgeNotFoundPage(path);
      const node = notFoundPage(path);
      expect(node === `${edge}.html`, `${path}: ${edge} vs ${node}`).toBe(true);
    }
  });
});
