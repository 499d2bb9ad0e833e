import {
  claimDueMails,
  giveUpMail,
  markMailFailed,
  markMailSent,
  type OutboxMail,
  RETRY_DELAYS_MS,
  releaseMails,
} from '../../../db/queries/mail';
import { type MailClient, MailSendError, mailFor, mailFrom } from '../clients/mail';
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

/**
 * How long before the provider forgets a mail's Idempotency-Key its last attempt may start: a
 * pass starts a send up to half a claim after its trigger's time, which may itself be late.
 */
const KEY_MARGIN_MS = 3_600_000;

/**
 * The last time an attempt at a mail unconfirmed since `since` (an attempt the provider may have
 * taken) may start through `client` without risking a second copy: its key's lifetime less
 * KEY_MARGIN_MS. Undefined: no limit (no such attempt, or a transport without keys: SMTP).
 */
export function retryDeadline(client: Pick<MailClient, 'idempotencyKeyMs'>, since: string | null): number | undefined {
  if (client.idempotencyKeyMs === undefined || since === null) return undefined;
  return Date.parse(since) + client.idempotencyKeyMs - KEY_MARGIN_MS;
}

/** What the Outbox says of a mail given up at its key's lifetime. */
const keyOutlived = (since: string, client: Pick<MailClient, 'idempotencyKeyMs'>) =>
  `Not tried again: the provider may have taken it at the attempt of ${since} (no certain answer), and it ` +
  `forgets that attempt's Idempotency-Key after ${(client.idempotencyKeyMs ?? 0) / 3_600_000} hours, so ` +
  'another attempt could deliver it twice. It may have been delivered once.';

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
      await releaseMails(deps.db, rest, now, now);
      log(`Mail: a slow pass; ${rest.length} mail(s) wait for the next pass`);
      break;
    }
    // Unconfirmed before this pass's claim (which marks every mail it takes): a mail the provider
    // may have taken is not tried once it may have forgotten the key that stops a second copy.
    const before = mail.unconfirmed_since === new Date(now).toISOString() ? null : mail.unconfirmed_since;
    const deadline = retryDeadline(client, before);
    if (before !== null && deadline !== undefined && now > deadline) {
      await giveUpMail(deps.db, mail.id, keyOutlived(before, client));
      summary.failed += 1;
      log(`Mail ${mail.id} (${mail.kind}) to ${mail.to_address}: given up: its idempotency key may have expired`);
      continue;
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
      const message = err instanceof Error ? err.message : String(err);
      // The provider may have taken it (no answer, a 5xx, "sent" not recorded): unconfirmed since
      // this claim or before; a plain refusal leaves the mail as unconfirmed as before the claim.
      const unconfirmed = !(err instanceof MailSendError) || err.unconfirmed;
      const since = unconfirmed ? mail.unconfirmed_since : before;
      // A retry due after the last moment the provider surely knows the key is not made.
      const until = retryDeadline(client, since);
      const delay = RETRY_DELAYS_MS[mail.attempts];
      const refused = err instanceof MailSendError && err.permanent;
      const outlived = !refused && since !== null && until !== undefined && delay !== undefined && now + delay > until;
      const permanent = refused || outlived;
      const status = await markMailFailed(
        deps.db,
        mail,
        now,
        outlived ? `${keyOutlived(since, client)} Last error: ${message}` : message,
        { permanent, unconfirmedSince: since },
      );
      if (status === 'failed') summary.failed += 1;
      else summary.retried += 1;
      log(
        `Mail ${mail.id} (${mail.kind}) to ${mail.to_address}: ${status === 'failed' ? 'given up' : 'retry later'}: ${message}`,
      );
      if (!refused && ++failures >= STOP_AFTER_FAILURES) {
        const rest = mails.slice(i + 1).map((m) => m.id);
        await releaseMails(deps.db, rest, now + RETRY_DELAYS_MS[0], now);
        log(`Mail: ${failures} failures in a row; ${rest.length} mail(s) wait for the next pass`);
        break;
      }
    }
  }
  return summary;
}
