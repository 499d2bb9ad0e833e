import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BreakerState } from './FreshnessScreen';

const state = (blockedUntil: string | null, isAdmin: boolean) =>
  renderToStaticMarkup(
    createElement(BreakerState, { blockedUntil, blockReason: 'rate_limited', isAdmin, onClear: () => {} }),
  );

describe("the Freshness screen's breaker (admins only clear it)", () => {
  const until = '2058-01-01T00:00:00.000Z';

  it('offers "Clear the block" to an admin while lookups are blocked', () => {
    expect(state(until, true)).toContain('>Clear the block</button>');
    expect(state(until, true)).toContain('rate_limited');
  });

  it('hides "Clear the block" from a moderator, who still sees until when and why', () => {
    const shown = state(until, false);
    expect(shown).not.toContain('Clear the block');
    expect(shown).not.toContain('<button');
    expect(shown).toContain('rate_limited');
  });

  it('offers nothing to clear when lookups are not blocked', () => {
    expect(state(null, true)).toBe('Not blocked');
    expect(state(null, false)).toBe('Not blocked');
  });
});
