import { describe, expect, it } from 'vitest';
import { issueSendState, issueSentNotice } from './NewsletterIssuePanel';

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

  it('finishes a send written in part, says the rest follows, and offers nothing once every copy is written', () => {
    expect(issueSendState({ composed: true, recipients: 5, enqueued: 2 })).toEqual({
      canSend: true,
      status:
        'Written for 2 of 5 subscribers so far: the rest are written by the newsletter’s next pass (every 15 minutes), or send again to write the next part now.',
    });
    expect(issueSendState({ composed: true, recipients: 5, enqueued: 5 })).toEqual({
      canSend: false,
      status: 'Sent this week to 5 subscribers; a send now writes nothing new.',
    });
  });
});

describe('issueSentNotice', () => {
  it('says a send wrote every copy, or how many of how many and that the rest follows', () => {
    const sent = { week: '2026-W48', enqueued: 450, recipients: 450, subscribers: 450, done: true };
    expect(issueSentNotice(sent)).toBe(
      'Issue 2026-W48: 450 copies written to the Outbox (450 in all); the sender delivers them.',
    );
    expect(issueSentNotice({ ...sent, enqueued: 2400, recipients: 2400, subscribers: 2700, done: false })).toBe(
      'Issue 2026-W48: 2400 copies written to the Outbox now, 2400 of 2700 so far; the rest are written by the newsletter’s next pass (every 15 minutes), or send again to write the next part now.',
    );
  });
});
