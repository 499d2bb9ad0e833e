import nodemailer from 'nodemailer';
import type { AppDeps } from '../context';
import { type MailClient, MailSendError, mailFor } from './mail';

/** How long a mail server may take to connect, greet and accept one mail. */
const SMTP_TIMEOUT_MS = 15_000;

/**
 * The SMTP transport (Node only: nodemailer needs sockets, so the Worker never imports this file):
 * `smtp://user:pass@host:587` (STARTTLS when offered), `smtps://…:465`. A 5xx reply is the server
 * refusing this mail for good; anything else (no connection, a 4xx, a timeout) is retried.
 *
 * One pooled connection (nodemailer's `pool`): the sender's mails go one after another over it
 * (a hundred each, then a fresh one), instead of a connection, a greeting and a TLS handshake
 * each. nodemailer's URL options still apply where the URL sets them (`?pool=false`).
 * `timeoutMs` is how long the server may take to connect, greet, or answer a command.
 */
export function smtpMailClient(url: string, timeoutMs = SMTP_TIMEOUT_MS): MailClient {
  // The options beside `url` are the transport's (a second argument would be message defaults).
  const transport = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 1,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    transport: 'smtp',
    async send(mail) {
      try {
        const info = await transport.sendMail({
          from: mail.from,
          to: mail.to,
          ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.headers ?? {},
          ...(mail.messageId ? { messageId: mail.messageId } : {}),
        });
        return { messageId: typeof info.messageId === 'string' ? info.messageId : null };
      } catch (err) {
        const code = (err as { responseCode?: unknown }).responseCode;
        const permanent = typeof code === 'number' && code >= 500 && code < 600;
        throw new MailSendError(`SMTP: ${err instanceof Error ? err.message : String(err)}`, permanent);
      }
    },
    close: () => transport.close(),
  };
}

/** The transport of a Node process: SMTP from SMTP_URL when set, else what mailFor finds (the HTTP provider, or none). */
export function nodeMailFor(deps: Pick<AppDeps, 'mail' | 'env' | 'fetch'>): MailClient | undefined {
  if (deps.mail) return deps.mail;
  return deps.env.SMTP_URL ? smtpMailClient(deps.env.SMTP_URL) : mailFor(deps);
}
