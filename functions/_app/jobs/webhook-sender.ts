import {
  claimDueWebhooks,
  disableOwnerWebhook,
  markWebhookFailed,
  markWebhookSent,
  ownerContactEmail,
  releaseWebhooks,
} from '../../../db/queries/webhooks';
import type { WebhookPayload } from '../../../src/lib/owners/notifications';
import { parseWebhookUrl } from '../../../src/lib/owners/webhook-url';
import { discordWebhookFor } from '../clients/discord-webhook';
import type { AppDeps } from '../context';
import { type ClaimedPassOptions, leaseWatch } from '../lib/claimed-pass';
import { mailSite } from '../mail/site';
import { webhookDisabledMail } from '../mail/webhook-disabled';

/** What a pass needs: the database and the settings (DISCORD_WEBHOOK_BASE), and fetch in tests. */
export type WebhookSenderDeps = Pick<AppDeps, 'db' | 'env' | 'fetch'>;

/** What a pass did. */
export interface WebhookRunSummary {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  /** Owners whose webhook was switched off (Discord answered 404 or 401). */
  disabled: number;
}

/**
 * One pass of the owners' webhook sender (#32) at `now`: claims due messages of the webhook outbox,
 * posts each to its owner's webhook through DISCORD_WEBHOOK_BASE and records it sent, or failed
 * with the mail's back-off (RETRY_DELAYS_MS) after a 5xx, a 429 or no answer. A webhook Discord
 * answers 404 or 401 for is switched off, its waiting messages given up and its owner mailed.
 * As the mail sender, a pass that has used half its claim's lease gives the rest back.
 */
export async function run(
  deps: WebhookSenderDeps,
  now: number,
  { limit = 50, log = () => {}, clock }: ClaimedPassOptions = {},
): Promise<WebhookRunSummary> {
  const summary: WebhookRunSummary = { claimed: 0, sent: 0, retried: 0, failed: 0, disabled: 0 };
  const leaseSpent = leaseWatch(clock);
  const rows = await claimDueWebhooks(deps.db, now, limit);
  summary.claimed = rows.length;
  const client = discordWebhookFor(deps);
  const gone = new Set<number>();
  for (const [i, row] of rows.entries()) {
    // Each post may wait 10 s for Discord (50 of them: 500 s, past the claim's lease).
    if (leaseSpent()) {
      const rest = rows.slice(i).map((r) => r.id);
      await releaseWebhooks(deps.db, rest, now);
      log(`Webhooks: a slow pass; ${rest.length} message(s) wait for the next pass`);
      break;
    }
    const webhook = row.webhook_url ? parseWebhookUrl(row.webhook_url) : null;
    if (!webhook || row.webhook_disabled_at || gone.has(row.owner_id)) {
      await markWebhookFailed(deps.db, row, now, 'the webhook is off or removed', true);
      summary.failed += 1;
      continue;
    }
    const answer = await client.post(webhook, row.payload as unknown as WebhookPayload);
    if (answer.kind === 'delivered') {
      await markWebhookSent(deps.db, row.id, now);
      summary.sent += 1;
    } else if (answer.kind === 'gone') {
      gone.add(row.owner_id);
      const to = await ownerContactEmail(deps.db, row.owner_id);
      await disableOwnerWebhook(
        deps.db,
        row.owner_id,
        now,
        `Discord answered ${answer.status}`,
        to ? { to, mail: webhookDisabledMail(mailSite(deps.env), { status: answer.status }) } : null,
      );
      summary.disabled += 1;
      summary.failed += 1;
      log(`Webhook of owner ${row.owner_id}: Discord answered ${answer.status}; switched off`);
    } else {
      const status = await markWebhookFailed(deps.db, row, now, answer.error);
      if (status === 'failed') summary.failed += 1;
      else summary.retried += 1;
      log(`Webhook ${row.id} (${row.event}): ${status === 'failed' ? 'given up' : 'retry later'}: ${answer.error}`);
    }
  }
  return summary;
}
