// The previous speed path of `POST /api/events`, kept only so `npm run bench -- --only api` measures
// it beside the route it gave way to (the events through the app's middleware chain): a handler
// mounted ahead of the chain that did the chain's jobs in one pass (the origin check and rate
// limit called directly, the body read straight from Node's request stream, the answer's headers
// as one plain record). Both store through the same group commit (recordEvents, db/queries), so
// the two rows differ only by the chain. Not part of the app.
import type { Context, Handler } from 'hono';
import { recordEvents } from '../../db/queries/interactions';
import type { AppDeps, AppEnv } from '../../functions/_app/context';
import { ApiError, errorAnswer } from '../../functions/_app/lib/errors';
import { nodeBody, readNodeBody } from '../../functions/_app/lib/node-body';
import { countRequest, RATE_LIMITS } from '../../functions/_app/lib/rate-limits';
import { assertSameOrigin } from '../../functions/_app/lib/same-origin';
import { API_HEADERS } from '../../functions/_app/lib/security-headers';
import { BODY_LIMIT_BYTES, parseWith, payloadTooLarge } from '../../functions/_app/lib/validate';
import { eventRows } from '../../functions/_app/routes/events';
import { cachedIpHash, hashIp } from '../../src/lib/hash';
import { eventBatchSchema, interactionSchema } from '../../src/lib/schemas/interaction';

const utf8 = new TextDecoder();

/**
 * Reads request headers (lower-case names): on Node from the IncomingMessage's parsed headers,
 * which @hono/node-server keeps, so this path never builds a web Headers object; elsewhere
 * (Worker, app.request()) from the Request.
 */
function headerReader(c: Context): (name: string) => string | undefined {
  const headers = (c.env as { incoming?: { headers?: Record<string, string | string[] | undefined> } } | undefined)
    ?.incoming?.headers;
  if (!headers) return (name) => c.req.header(name);
  return (name) => {
    const value = headers[name];
    return typeof value === 'string' ? value : value?.join(', ');
  };
}

/** The body as bytes: from Node's stream when there is one, else from the web Request (Worker, app.request()). */
async function readEventBody(c: Context): Promise<Uint8Array> {
  const incoming = nodeBody(c);
  if (incoming) return readNodeBody(incoming);
  if (Number(c.req.header('content-length') ?? Number.NaN) > BODY_LIMIT_BYTES) throw payloadTooLarge();
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength > BODY_LIMIT_BYTES) throw payloadTooLarge();
  return bytes;
}

const json = (body: unknown, status: number, headers?: Record<string, string>) =>
  new Response(JSON.stringify(body), { status, headers: headers ? { ...API_HEADERS, ...headers } : API_HEADERS });

/** The previous `POST /api/events` handler, answering as the route does (tests/api/events.test.ts held it to that). */
export function eventsFastPath(deps: AppDeps): Handler<AppEnv> {
  const secret = deps.env.IP_HASH_SECRET;
  return async (c) => {
    try {
      const header = headerReader(c);
      assertSameOrigin(c, deps.env.SITE_URL, header);
      const ip = deps.clientIp?.(c.req.raw, c.env) ?? header('cf-connecting-ip') ?? '0.0.0.0';
      const ipHash = cachedIpHash(secret, ip) ?? (await hashIp(secret, ip));
      const limited = countRequest(deps, RATE_LIMITS.events, ipHash);
      if (limited) await limited;
      const type = (header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json' && type !== 'text/plain') {
        throw new ApiError(415, 'unsupported_media_type', 'Send application/json or text/plain JSON');
      }
      let data: unknown;
      try {
        data = JSON.parse(utf8.decode(await readEventBody(c)));
      } catch (err) {
        if (err instanceof ApiError) throw err;
        throw new ApiError(400, 'invalid_json', 'The body is not valid JSON');
      }
      const events = Array.isArray(data) ? parseWith(eventBatchSchema, data) : [parseWith(interactionSchema, data)];
      const rows = eventRows(events, header('user-agent')?.slice(0, 256) ?? null, ipHash);
      return json({ accepted: await recordEvents(deps.db, rows) }, 202);
    } catch (err) {
      // The chain (and its headers) is not around this handler: its errors are answered here, as app.onError would.
      const { status, body, headers } = errorAnswer(err, crypto.randomUUID());
      return json(body, status, headers);
    }
  };
}
