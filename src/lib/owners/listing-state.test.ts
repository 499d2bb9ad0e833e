import { describe, expect, it } from 'vitest';
import { listingState } from './listing-state';

describe('listingState', () => {
  it('a hidden listing is hidden whatever its invite says', () => {
    expect(listingState({ is_active: false, invite_status: 'ok' })).toBe('hidden');
  });
  it('a dead, suspect, paused, expiring or wrong-guild invite is an invite problem', () => {
    for (const s of ['dead', 'suspect', 'paused', 'expiring', 'wrong_guild'] as const)
      expect(listingState({ is_active: true, invite_status: s })).toBe('invite_problem');
  });
  it('a working or not yet checked invite is live', () => {
    expect(listingState({ is_active: true, invite_status: 'ok' })).toBe('live');
    expect(listingState({ is_active: true, invite_status: 'unchecked' })).toBe('live');
  });
});
