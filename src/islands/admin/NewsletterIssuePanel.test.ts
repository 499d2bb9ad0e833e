import { describe, expect, it } from 'vitest';
import { issueSendState } from './NewsletterIssuePanel';

describe('issueSendState', () => {
  it('offers the send to the confirmed subscribers of an issue not yet composed', () => {
    expect(issueSendState({ composed: false, recipients: 3, enqueued: 0 })).toEqual({
      canSend: true,
      status: 'Goes to 3 confirmed subscribers.',
    });
  });

  it('refuses a send to nobody and says why', () => {
    const state = issueSendState({ composed: false, recipients: 0, enqueued: 0 });
    expect(state.canSend).toBe(false);
    expect(state.status).toMatch(/^No confirmed subscribers yet/);
  });

  it('finishes a send that stopped half-way, and offers nothing once every copy is written', () => {
    expect(issueSendState({ composed: true, recipients: 5, enqueued: 2 }).canSend).toBe(true);
    expect(issueSendState({ composed: true, recipients: 5, enqueued: 5 })).toEqual({
      canSend: false,
      status: 'Sent this week to 5 subscribers; a send now writes nothing new.',
    });
  });
});
