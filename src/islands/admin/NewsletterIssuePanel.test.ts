import { describe, expect, it } from 'vitest';
import { issuePreviewSrc, issueSendState, issueSentNotice } from './NewsletterIssuePanel';

/** This week's issue with nothing owed of last week's. */
const thisWeek = { week: '2026-W49', owed: null, later: 0 };

describe('issueSendState', () => {
  it('offers the send to the confirmed subscribers of an issue not yet composed', () => {
    expect(issueSendState({ ...thisWeek, composed: false, recipients: 3, enqueued: 0 })).toEqual({
      canSend: true,
      status: 'Goes to 3 confirmed subscribers.',
      button: "Send this week's issue to 3 subscribers",
    });
  });

  it('refuses a send to nobody and says why', () => {
    const state = issueSendState({ ...thisWeek, composed: false, recipients: 0, enqueued: 0 });
    expect(state.canSend).toBe(false);
    expect(state.status).toMatch(/^No confirmed subscribers yet/);
  });

  it('finishes a send written in part, says the rest follows, and offers nothing once every copy is written', () => {
    expect(issueSendState({ ...thisWeek, composed: true, recipients: 5, enqueued: 2 })).toEqual({
      canSend: true,
      status:
        'Written for 2 of 5 subscribers so far: the rest are written by the newsletter’s next pass (every 15 minutes), or send again to write the next part now.',
      button: "Send this week's issue to 5 subscribers",
    });
    expect(issueSendState({ ...thisWeek, composed: true, recipients: 5, enqueued: 5 })).toEqual({
      canSend: false,
      status: 'Sent this week to 5 subscribers; a send now writes nothing new.',
      button: "Send this week's issue to 5 subscribers",
    });
  });
});

describe('subscribers confirmed after the week’s issue was composed', () => {
  it('says they get next week’s issue, in the panel and after a send that wrote nothing for them', () => {
    expect(issueSendState({ ...thisWeek, composed: true, recipients: 5, enqueued: 5, later: 2 })).toEqual({
      canSend: false,
      status:
        "Sent this week to 5 subscribers; a send now writes nothing new. 2 subscribers confirmed after this issue was composed get next week's issue, not this one.",
      button: "Send this week's issue to 5 subscribers",
    });
    const sent = { week: '2026-W48', thisWeek: '2026-W48', enqueued: 0, recipients: 1, subscribers: 1, done: true };
    expect(issueSentNotice({ ...sent, later: 1 })).toBe(
      "Issue 2026-W48: 0 copies written to the Outbox (1 in all); the sender delivers them. 1 subscriber confirmed after this issue was composed gets next week's issue, not this one.",
    );
  });
});

describe('issueSendState after the week’s end', () => {
  it('offers to finish last week’s issue first, labelled by its week, even while this week has nobody to send to', () => {
    const owed = { week: '2026-W48', recipients: 250, enqueued: 200, left: 50 };
    for (const recipients of [0, 3])
      expect(issueSendState({ ...thisWeek, composed: false, recipients, enqueued: 0, owed })).toEqual({
        canSend: true,
        status:
          "Last week's issue 2026-W48 is written for 200 of its 250 subscribers: a send finishes it first (50 copies left), then this week's issue 2026-W49 can be sent.",
        button: "Finish last week's issue 2026-W48: 50 copies left",
      });
  });
});

describe('issueSentNotice', () => {
  it('names last week’s issue when a send after the week’s end finished it, and says this week’s is not sent yet', () => {
    const sent = {
      week: '2026-W48',
      thisWeek: '2026-W49',
      enqueued: 50,
      recipients: 250,
      subscribers: 250,
      later: 0,
    };
    expect(issueSentNotice({ ...sent, done: true })).toBe(
      "Last week's issue 2026-W48: 50 copies written to the Outbox, and every copy of it is written now (250 in all); the sender delivers them. This week's issue 2026-W49 is not sent yet: send again to send it.",
    );
    expect(issueSentNotice({ ...sent, enqueued: 2400, recipients: 2600, subscribers: 3000, done: false })).toBe(
      "Last week's issue 2026-W48: 2400 copies written to the Outbox now, 2600 of 3000 so far; the rest are written by the newsletter’s next pass (every 15 minutes), or send again to write the next part now. This week's issue 2026-W49 follows once it is finished.",
    );
  });

  it('says a send wrote every copy, or how many of how many and that the rest follows', () => {
    const sent = {
      week: '2026-W48',
      thisWeek: '2026-W48',
      enqueued: 450,
      recipients: 450,
      subscribers: 450,
      later: 0,
      done: true,
    };
    expect(issueSentNotice(sent)).toBe(
      'Issue 2026-W48: 450 copies written to the Outbox (450 in all); the sender delivers them.',
    );
    expect(issueSentNotice({ ...sent, enqueued: 2400, recipients: 2400, subscribers: 2700, done: false })).toBe(
      'Issue 2026-W48: 2400 copies written to the Outbox now, 2400 of 2700 so far; the rest are written by the newsletter’s next pass (every 15 minutes), or send again to write the next part now.',
    );
  });
});

describe('issuePreviewSrc', () => {
  it('loads a week’s issue from the admin route that serves it with its own policy, not inline in the console', () => {
    expect(issuePreviewSrc('2026-W49')).toBe('/api/admin/newsletter/issue/2026-W49/preview');
  });
});
