import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe';

describe('unsubscribe tokens', () => {
  it('verify to the email they were signed for, for any email', async () => {
    await fc.assert(
      fc.asyncProperty(fc.emailAddress(), async (email) => {
        expect(await verifyUnsubscribeToken('s', await unsubscribeToken('s', email))).toBe(email);
      }),
      { numRuns: 100 },
    );
  });

  it('fail under another secret, with a swapped email or when mangled', async () => {
    const token = await unsubscribeToken('s', 'a@example.com');
    expect(await verifyUnsubscribeToken('other', token)).toBeNull();
    const other = await unsubscribeToken('s', 'b@example.com');
    expect(await verifyUnsubscribeToken('s', `${token.split('.')[0]}.${other.split('.')[1]}`)).toBeNull();
    for (const bad of ['', '.', 'abc', `${token}.x`, `!!!.${token.split('.')[1]}`]) {
      expect(await verifyUnsubscribeToken('s', bad)).toBeNull();
    }
  });
});
