import type { AppDeps } from '../context';
import type { Env } from '../env';

/** One mail as the transport sends it: the outbox row's content with its sender. */
export interface OutgoingMail {
  from: string;
  to: string;
  replyTo?: string | null | undefined;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string> | null | undefined;
  /**
   * One per mail, the same on every attempt (the outbox row's): the HTTP provider sends a mail once
   * per key (Resend keeps keys 24 hours), so an attempt after one the provider took but whose
   * "sent" was never recorded (a crash, a lost database write) is answered without a second mail.
   */
  idempotencyKey?: string | undefined;
  /**
   * The Message-ID (`<…@domain>`), the same on every attempt (the outbox row's): SMTP has no
   * idempotency key, so a mail the server took whose reply was lost goes again, and this is what
   * lets a receiver tell the second copy for the same mail. The HTTP provider sets its own.
   */
  messageId?: string | undefined;
}

/**
 * A failed send: `permanent` when the mail server or provider refused this mail for good (a bad
 * address, a 5xx SMTP reply, a provider's refusal of this mail: providerRefusalIsFinal), so
 * retrying cannot help; otherwise it is retried. `unconfirmed` unless the answer says the mail was
 * not taken (a refusal such as 429 or 401): with no answer, a 5xx or an attempt still in
 * progress, the provider may have taken it.
 */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly unconfirmed = true,
  ) {
    super(message);
    this.name = 'MailSendError';
  }
}

/** The one seam to the outside mail service: SMTP on Node (mail-smtp.ts), an HTTP provider on Cloudflare. */
export interface MailClient {
  /** 'smtp' or 'http', for the console and the logs. */
  readonly transport: string;
  /**
   * How long the transport answers a repeated `idempotencyKey` without sending again
   * (IDEMPOTENCY_KEY_LIFETIME_MS for the HTTP provider); absent when it has no such key (SMTP).
   */
  readonly idempotencyKeyMs?: number;
  /** Sends one mail; resolves with the Message-ID (or the provider's id) once accepted; throws MailSendError. */
  send(mail: OutgoingMail): Promise<{ messageId: string | null }>;
  /** Frees pooled connections (SMTP); a no-op for HTTP. */
  close?(): void;
}

/**
 * How long the HTTP provider answers a repeated Idempotency-Key with the first request's result
 * instead of sending again: Resend keeps a key 24 hours
 * (https://resend.com/docs/dashboard/emails/idempotency-keys). A retry after that is a new mail.
 */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 3_600_000;

/** How long an HTTP provider may take to accept one mail. */
const HTTP_TIMEOUT_MS = 10_000;

/**
 * Whether a provider's refusal is this mail's own, for good (true), or may pass (false: retried
 * with the back-off), by Resend's documented errors (https://resend.com/docs/api-reference/errors):
 * - 409 `concurrent_idempotent_requests`: an earlier attempt with the same key (one this client
 *   stopped waiting for) is still in progress; "try the request again later": the next attempt
 *   gets that attempt's answer, so the mail goes out once.
 * - 409 `invalid_idempotent_request`: the key was taken with another payload (MAIL_FROM changed
 *   after an attempt the provider took); retrying with it is useless, and a new key could send it
 *   twice: final, and the outbox says so.
 * - 401, 403, 404, 405: the site's settings (the API key, an unverified sending domain, MAIL_API_URL),
 *   not this mail: every mail would be refused alike until they are fixed, so they wait.
 * - 408, 429 and 5xx: the provider busy or down.
 * Any other 4xx (400 `validation_error`, 422) is the provider refusing this mail: final.
 */
function providerRefusalIsFinal(status: number, name: string | undefined): boolean {
  if (status === 409) return name !== 'concurrent_idempotent_requests';
  if ([401, 403, 404, 405, 408, 429].includes(status)) return false;
  return status >= 400 && status < 500;
}

/** The error `name` of a provider's JSON answer (`{ statusCode, name, message }`), if it has one. */
function errorName(answer: string): string | undefined {
  try {
    const name = (JSON.parse(answer) as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The HTTP mail provider, in Resend's API shape (https://resend.com/docs/api-reference/emails/send-email):
 * `POST {baseUrl}/emails` with `Authorization: Bearer {token}` and a JSON body of from, to, subject,
 * text, html, reply_to and headers, and the mail's `Idempotency-Key` header; a 2xx answers `{ id }`.
 * A refusal is final or retried as providerRefusalIsFinal says. Tests point `baseUrl` at a
 * loopback stand-in.
 */
export function httpMailClient({
  baseUrl,
  token,
  fetch: fetchFn = fetch,
}: {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch | undefined;
}): MailClient {
  const url = `${baseUrl.replace(/\/+$/, '')}/emails`;
  return {
    transport: 'http',
    idempotencyKeyMs: IDEMPOTENCY_KEY_LIFETIME_MS,
    async send(mail) {
      let res: Response;
      try {
        res = await fetchFn(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            ...(mail.idempotencyKey ? { 'idempotency-key': mail.idempotencyKey } : {}),
          },
          body: JSON.stringify({
            from: mail.from,
            to: [mail.to],
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
            ...(mail.replyTo ? { reply_to: mail.replyTo } : {}),
            ...(mail.headers && Object.keys(mail.headers).length > 0 ? { headers: mail.headers } : {}),
          }),
          signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
        });
      } catch (err) {
        throw new MailSendError(`mail provider unreachable: ${String(err)}`, false);
      }
      const answer = await res.text();
      if (!res.ok) {
        const name = errorName(answer);
        // A 5xx, or a 409 for an attempt still in progress, may come after the mail was taken.
        const unconfirmed = res.status >= 500 || name === 'concurrent_idempotent_requests';
        throw new MailSendError(
          `mail provider answered ${res.status}: ${answer.slice(0, 200)}`,
          providerRefusalIsFinal(res.status, name),
          unconfirmed,
        );
      }
      let id: unknown = null;
      try {
        id = (JSON.parse(answer) as { id?: unknown }).id;
      } catch {
        // An accepted mail without a readable id is still sent.
      }
      return { messageId: typeof id === 'string' ? id : null };
    },
  };
}

/** The From of every mail: MAIL_FROM, or `GuildRank <no-reply@` the public site's host `>`. */
export function mailFrom(env: Pick<Env, 'MAIL_FROM' | 'SITE_URL'>, siteName = 'GuildRank'): string {
  return env.MAIL_FROM ?? `${siteName} <no-reply@${new URL(env.SITE_URL).hostname.replace(/^www\./, '')}>`;
}

/**
 * The transport of these deps: the one given (Node builds SMTP from SMTP_URL, mail-smtp.ts), else
 * the HTTP provider when MAIL_API_URL and MAIL_API_TOKEN are set, else none: mails then wait in the outbox.
 */
export function mailFor(deps: Pick<AppDeps, 'mail' | 'env' | 'fetch'>): MailClient | undefined {
  if (deps.mail) return deps.mail;
  const { MAIL_API_URL, MAIL_API_TOKEN } = deps.env;
  if (MAIL_API_URL && MAIL_API_TOKEN)
    return httpMailClient({ baseUrl: MAIL_API_URL, token: MAIL_API_TOKEN, fetch: deps.fetch });
  return undefined;
}
