/**
 * What an owner is told on their Discord webhook (#32): one event, one short message. Pure; the
 * outbox stores the message as Discord's Execute Webhook body. `new_review` is for the reviews
 * feature (#31), which sends it through the same notifyOwner.
 */

export type OwnerEvent =
  | { kind: 'approved'; serverName: string; url: string }
  | { kind: 'rejected'; serverName: string; reasons: string[] }
  | { kind: 'hidden'; serverName: string; reasons: string[] }
  | { kind: 'invite_dead'; serverName: string; url: string }
  | { kind: 'placement_ending'; serverName: string; endsAt: string; nextStartsAt?: string | null }
  | { kind: 'new_review'; serverName: string; url: string }
  | { kind: 'test' };

export type OwnerEventKind = OwnerEvent['kind'];

/** Discord's Execute Webhook body: plain content, no mentions pinged. */
export interface WebhookPayload {
  content: string;
  allowed_mentions: { parse: [] };
  username: string;
}

/** An ISO time as the messages say it: "2026-03-31 12:00". */
const utc = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** Discord caps a message at 2,000 characters. */
const MAX = 2000;

/** The message of an event, as Discord's Execute Webhook takes it. */
export function ownerEventPayload(event: OwnerEvent, siteName = 'GuildRank'): WebhookPayload {
  const text = (() => {
    switch (event.kind) {
      case 'approved':
        return `✅ ${event.serverName} is approved and listed: ${event.url}`;
      case 'rejected':
        return `❌ ${event.serverName} was not approved. Reasons: ${event.reasons.join('; ')}. The email we sent has the details and a link to appeal.`;
      case 'hidden':
        return `🚫 ${event.serverName} was hidden by a moderator. Reasons: ${event.reasons.join('; ')}. The email we sent has a link to appeal.`;
      case 'invite_dead':
        return `⚠️ The invite of ${event.serverName} stopped working: it is off the lists until it works again. Replace it from your account: ${event.url}`;
      case 'placement_ending':
        return `⏳ The paid placement of ${event.serverName} ends ${utc(event.endsAt)} UTC.${
          // Its next term, already paid, booked to start later (it waits for a Sponsored slot).
          event.nextStartsAt ? ` Its next term, already paid, starts ${utc(event.nextStartsAt)} UTC.` : ''
        }`;
      case 'new_review':
        return `💬 ${event.serverName} has a new review: ${event.url}`;
      case 'test':
        return `This webhook now gets ${siteName} notices about your listings: approvals, rejections, hidden listings, invites that stop working, new reviews and paid placements ending.`;
    }
  })();
  return { content: text.slice(0, MAX), allowed_mentions: { parse: [] }, username: siteName };
}
