import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONFIRM_LINK_TTL_MS,
  confirmToken,
  unsubscribeToken,
  verifyConfirmToken,
  verifyUnsubscribeToken,
} from './unsubscribe';

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

describe('confirmation tokens', () => {
  it('verify to their email, and never as an unsubscribe token (nor the other way round)', async () => {
    const confirm = await confirmToken('s', 'a@example.com');
    expect(await verifyConfirmToken('s', confirm)).toBe('a@example.com');
    expect(await verifyUnsubscribeToken('s', confirm)).toBeNull();
    expect(await verifyConfirmToken('s', await unsubscribeToken('s', 'a@example.com'))).toBeNull();
    expect(await verifyConfirmToken('other', confirm)).toBeNull();
  });
  it('expire 7 days after they were issued; a token with its time altered is forged', async () => {
    const at = Date.parse('2026-11-01T00:00:00.000Z');
    const confirm = await confirmToken('s', 'a@example.com', at);
    expect(await verifyConfirmToken('s', confirm, at + CONFIRM_LINK_TTL_MS)).toBe('a@example.com');
    expect(await verifyConfirmToken('s', confirm, at + CONFIRM_LINK_TTL_MS + 1)).toBe('expired');
    const [email, , mac] = confirm.split('.');
    expect(await verifyConfirmToken('s', `${email}.${(at + 86_400_000 * 30).toString(36)}.${mac}`, at)).toBeNull();
    expect(await verifyConfirmToken('s', await confirmToken('s', 'a@example.com', at + 3_600_000), at)).toBeNull();
  });
});
