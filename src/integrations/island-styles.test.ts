import { describe, expect, it } from 'vitest';
import { ISLAND_STYLE_ELEMENT, moveIslandStyle } from './island-styles';

describe('moveIslandStyle', () => {
  it('moves the island style element from the body to the end of the head', () => {
    const html = `<html><head><title>x</title></head><body><main>${ISLAND_STYLE_ELEMENT}<script>1</script><astro-island></astro-island></main></body></html>`;
    expect(moveIslandStyle(html)).toBe(
      `<html><head><title>x</title>${ISLAND_STYLE_ELEMENT}</head><body><main><script>1</script><astro-island></astro-island></main></body></html>`,
    );
  });

  it('leaves a page without one, or with it in the head already, as it is', () => {
    const plain = '<html><head></head><body><p>no islands</p></body></html>';
    expect(moveIslandStyle(plain)).toBe(plain);
    const moved = `<html><head>${ISLAND_STYLE_ELEMENT}</head><body></body></html>`;
    expect(moveIslandStyle(moved)).toBe(moved);
  });

  it('matches what Astro writes', async () => {
    const { ISLAND_STYLES } = await import('../../node_modules/astro/dist/runtime/server/astro-island-styles.js');
    expect(ISLAND_STYLE_ELEMENT).toBe(`<style>${ISLAND_STYLES}</style>`);
  });
});
