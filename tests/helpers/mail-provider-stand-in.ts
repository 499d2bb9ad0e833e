import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IDEMPOTENCY_KEY_LIFETIME_MS } from '../../functions/_app/clients/mail';

/** One POST the provider stand-in took (and "sent"). */
export interface ProviderRequest {
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: {
    from: string;
    to: string[];
    subject: string;
    text: string;
    html: string;
    reply_to?: string;
    headers?: Record<string, string>;
  };
}

/** An error answer as Resend gives it (https://resend.com/docs/api-reference/errors). */
export interface ProviderError {
  status: number;
  /** Resend's error name: `validation_error`, `invalid_api_key`, `rate_limit_exceeded`… */
  name?: string;
}

/** A request the stand-in holds in flight (see `holdNext`) until the test lets it finish. */
export interface HeldRequest {
  /** Resolves once the request reached the stand-in. */
  arrived: Promise<void>;
  /** Lets it finish: the mail is taken (recorded) and answered, whether or not the client still waits. */
  release(): void;
}

/**
 * A loopback stand-in for Resend's `POST /emails` (the HTTP provider the Worker uses), answering
 * as Resend documents its idempotency keys (https://resend.com/docs/dashboard/emails/idempotency-keys):
 * a request with a key it has taken before, with the same payload, is answered with that mail's id
 * and sends (records) nothing; with another payload, 409 `invalid_idempotent_request`; while the
 * first request of a key is still in progress, 409 `concurrent_idempotent_requests`. A key is
 * forgotten IDEMPOTENCY_KEY_LIFETIME_MS (24 hours) after its first request, by `clock` (the test's
 * own time; the real one by default): a request with it after that is a new mail. `fail` answers
 * the next requests with those errors instead; `holdNext` keeps the next request in progress.
 */
export async function startProviderStandIn({ clock = Date.now }: { clock?: () => number } = {}) {
  const requests: ProviderRequest[] = [];
  const state = { fail: [] as (number | ProviderError)[] };
  /** Per key: the payload it was first used with, when, and the id once that request finished. */
  const keys = new Map<string, { payload: string; at: number; id: string | null }>();
  let hold: { arrived: () => void; released: Promise<void> } | null = null;

  const answer = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const refuse = (res: import('node:http').ServerResponse, status: number, name: string, message: string) =>
    answer(res, status, { statusCode: status, name, message });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const next = state.fail.shift();
      if (next !== undefined) {
        const { status, name = 'validation_error' } = typeof next === 'number' ? { status: next } : next;
        refuse(res, status, name, 'refused');
        return;
      }
      const payload = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['idempotency-key'];
      const key = typeof header === 'string' ? header : undefined;
      const known = key ? keys.get(key) : undefined;
      const seen = known && clock() - known.at < IDEMPOTENCY_KEY_LIFETIME_MS ? known : undefined;
      if (seen && seen.payload !== payload) {
        refuse(res, 409, 'invalid_idempotent_request', 'Same idempotency key used with a different request payload.');
        return;
      }
      if (seen && seen.id === null) {
        refuse(
          res,
          409,
          'concurrent_idempotent_requests',
          'Same idempotency key used while original request is still in progress.',
        );
        return;
      }
      if (seen) {
        answer(res, 200, { id: seen.id });
        return;
      }
      const entry = { payload, at: clock(), id: null as string | null };
      if (key) keys.set(key, entry);
      if (hold) {
        const { arrived, released } = hold;
        hold = null;
        arrived();
        await released;
      }
      requests.push({
        path: req.url ?? '',
        authorization: req.headers.authorization,
        idempotencyKey: key,
        body: JSON.parse(payload) as ProviderRequest['body'],
      });
      entry.id = `re_${requests.length}`;
      // The client may have given up waiting (its timeout): the mail is sent all the same.
      if (!res.destroyed) answer(res, 200, { id: entry.id });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Keeps the next request that would send a mail in progress until `release()`. */
  const holdNext = (): HeldRequest => {
    let arrived!: () => void;
    let release!: () => void;
    const arrivedP = new Promise<void>((ok) => {
      arrived = ok;
    });
    const released = new Promise<void>((ok) => {
      release = ok;
    });
    hold = { arrived, released };
    return { arrived: arrivedP, release };
  };

  return {
    url,
    requests,
    state,
    holdNext,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
