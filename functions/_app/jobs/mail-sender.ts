import {
  claimDueMails,
  markMailFailed,
  markMailSent,
  type OutboxMail,
  RETRY_DELAYS_MS,
  releaseMails,
} from '../../../db/queries/mail';
import { MailSendError, mailFor, mailFrom } from '../clients/mail';
import type { AppDeps } from '../context';
import { type ClaimedPassOptions, leaseWatch } from '../lib/claimed-pass';

/** Transient failures in a row that end a pass: the mail server is down; the rest wait for the next pass. */
export const STOP_AFTER_FAILURES = 2;

/** What a pass needs: the database, the settings and the transport (given, or from the env: mailFor). */
export type MailSenderDeps = Pick<AppDeps, 'db' | 'env' | 'mail' | 'fetch'>;

/**
 * What stays the same on every attempt at one outbox mail: the HTTP provider's Idempotency-Key
 * (the site's host, the row's id and its key, so another database on the same provider key, a
 * staging site or a restore, never shares one; Resend takes up to 256 characters) and, for SMTP,
 * the Message-ID: a digest of that key at the From address's domain (opaque: the key names
 * subscribers' ids), so the copies of a mail sent twice carry one id.
 */
async function outboxMailIdentity(
  siteUrl: string,
  from: string,
  mail: Pick<OutboxMail, 'id' | 'dedupe_key'>,
): Promise<{ idempotencyKey: string; messageId: string }> {
  const idempotencyKey = `${new URL(siteUrl).host}:${mail.id}:${mail.dedupe_key}`.slice(0, 256);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(idempotencyKey)));
  const hex = [...digest.subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const domain = /@([^\s@>]+)>?\s*$/.exec(from)?.[1] ?? new URL(siteUrl).hostname;
  return { idempotencyKey, messageId: `<outbox.${hex}@${domain}>` };
}

/** What a pass did. */
export interface MailRunSummary {
  /** 'smtp', 'http', or null: no transport configured, the mails wait in the outbox. */
  transport: string | null;
  claimed: number;
  sent: number;
  /** Failed this time, tried again after their back-off. */
  retried: number;
  /** Given up: refused for good, or out of retries. */
  failed: number;
}

/**
 * One pass of the sender at `now`: claims up to `limit` due mails of the outbox (the claim moves
 * their next_attempt_at, so two senders never send one), sends each through the transport and
 * records it as sent, or as failed with its back-off (RETRY_DELAYS_MS). When the mail server is
 * down, or the pass has used half its claim's lease, the claimed mails not yet tried are given back
 * for the next pass. With no transport
 * configured nothing is claimed: the mails stay in the outbox (the console's Outbox shows them).
 */
export async function run(
  deps: MailSenderDeps,
  now: number,
  { limit = 50, log = () => {}, clock }: ClaimedPassOptions = {},
): Promise<MailRunSummary> {
  const client = mailFor(deps);
  const summary: MailRunSummary = { transport: client?.transport ?? null, claimed: 0, sent: 0, retried: 0, failed: 0 };
  if (!client) return summary;
  const leaseSpent = leaseWatch(clock);
  const mails = await claimDueMails(deps.db, now, { limit });
  summary.claimed = mails.length;
  const from = mailFrom(deps.env);
  let failures = 0;
  for (const [i, mail] of mails.entries()) {
    if (leaseSpent()) {
      const rest = mails.slice(i).map((m) => m.id);
      await releaseMails(deps.db, rest, now);
      log(`Mail: a slow pass; ${rest.length} mail(s) wait for the next pass`);
      break;
    }
    try {
      const { messageId } = await client.send({
        from,
        to: mail.to_address,
        replyTo: mail.reply_to,
        subject: mail.subject,
        text: mail.text_body,
        html: mail.html_body,
        headers: mail.headers,
        ...(await outboxMailIdentity(deps.env.SITE_URL, from, mail)),
      });
      await markMailSent(deps.db, mail.id, now, messageId);
      summary.sent += 1;
      failures = 0;
    } catch (err) {
      const permanent = err instanceof MailSendError && err.permanent;
      const message = err instanceof Error ? err.message : String(err);
      const status = await markMailFailed(deps.db, mail, now, message, { permanent });
      if (status === 'failed') summary.failed += 1;
      else summary.retried += 1;
      log(
        `Mail ${mail.id} (${mail.kind}) to ${mail.to_address}: ${status === 'failed' ? 'given up' : 'retry later'}: ${message}`,
      );
      if (!permanent && ++failures >= STOP_AFTER_FAILURES) {
        const rest = mails.slice(i + 1).map((m) => m.id);
        await releaseMails(deps.db, rest, now + RETRY_DELAYS_MS[0]);
        log(`Mail: ${failures} failures in a row; ${rest.length} mail(s) wait for the next pass`);
        break;
      }
    }
  }
  return summary;
}
