import type { Context, Handler } from 'hono';
import type { z } from 'zod';
import { type EventWrite, insertEvents } from '../../../db/queries/interactions';
import { cachedIpHash, hashIp } from '../../../src/lib/hash';
import {
  eventBatchSchema,
  type eventsSchema,
  type InteractionInput,
  interactionSchema,
} from '../../../src/lib/schemas/interaction';
import type { AppDeps, AppEnv } from '../context';
import { ApiError, errorAnswer, isDbUnavailable } from './errors';
import { countRequest, RATE_LIMITS } from './rate-limits';
import { assertSameOrigin } from './same-origin';
import { API_HEADERS } from './security-headers';
import { BODY_LIMIT_BYTES, parseWith, payloadTooLarge } from './validate';

/**
 * The one speed path of the app (#14): `POST /api/events`, the busiest write (every page view
 * sends one). Every other route runs the app's middleware chain (app.ts) and a plain drizzle
 * query; this one handler, mounted ahead of that chain, does the same jobs in one pass:
 * - the origin check and the rate limit of the chain's own modules, called directly (no
 *   middleware layer, so Hono runs the single handler without compose's promise per layer);
 * - the body read straight from Node's request stream (no web Request built around it);
 * - the answer built with its headers as one plain record (the API set the chain's
 *   hono/secure-headers gives JSON, byte for byte: tests/api/security-headers.test.ts), which
 *   @hono/node-server writes to the socket without a Headers object;
 * - the rows stored through a group commit (below): concurrent requests share one multi-row
 *   INSERT and one commit (about 40 rows per commit with 50 clients), its statement kept
 *   prepared (db/prepared.ts), written as plain SQL text (db/queries/interactions.ts).
 * What it buys, `npm run bench` in one run on this machine (BENCHMARKS.md, Public API, the app in
 * a server process of its own): these events through the middleware chain and a plain insert, as
 * every other write, reach 0.06 / 0.07 of the hello-world baseline at 10k / 100k listings; through
 * this path 0.50 / 0.57 (#14's floor is 0.45). The bench measures both rows in every run.
 */
/**
 * Group commit: concurrent requests' inserts are gathered for a short window and written as one
 * multi-row statement, so a burst pays for one commit instead of hundreds. The window is one
 * event-loop turn, extended turn by turn (up to `maxTurns`) while rows keep arriving: under load
 * the clients whose requests are still being parsed join the same commit, and a quiet turn (or
 * `maxRows`) closes it, so a lone request waits one turn as before. Each caller still awaits its
 * own rows being stored (a 2xx always means stored). If the shared write fails, every caller's
 * rows are retried alone, so one bad row fails only its request; if it failed because the
 * database is unavailable (locked, unreachable), every caller fails with it at once, since each
 * retry alone would wait out the same lock again, one after the other.
 */
export class GroupCommit<Row, Out> {
  private queue: { rows: Row[]; resolve: (out: Out[]) => void; reject: (err: unknown) => void }[] = [];
  private queuedRows = 0;
  private scheduled = false;
  /** Callers queued when the window last looked, and how many turns it has been open. */
  private seen = 0;
  private turns = 0;

  constructor(
    /** Writes rows, answering one output per row in the same order. */
    private readonly write: (rows: Row[]) => Promise<Out[]>,
    /** Largest number of rows per shared write (SQLite's bound-parameter limit). */
    private readonly maxRows = 500,
    /** Opens a window: runs its argument on the next turn. */
    private readonly defer: (fn: () => void) => void = deferDefault,
    /** Most turns one window stays open while rows keep arriving (1: a single turn). */
    private readonly maxTurns = 1,
  ) {}

  /** Queues rows for the next shared write; resolves with their outputs once stored. */
  add(rows: Row[]): Promise<Out[]> {
    if (rows.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ rows, resolve, reject });
      this.queuedRows += rows.length;
      if (!this.scheduled) {
        this.scheduled = true;
        this.seen = this.queue.length;
        this.turns = 0;
        this.defer(this.tick);
      }
    });
  }

  /** The end of a turn of the window: wait one more while callers keep arriving, else write. */
  private readonly tick = (): void => {
    const grew = this.queue.length > this.seen;
    if (grew && this.queuedRows < this.maxRows && ++this.turns < this.maxTurns) {
      this.seen = this.queue.length;
      this.defer(this.tick);
      return;
    }
    void this.flush();
  };

  private async flush(): Promise<void> {
    this.scheduled = false;
    const jobs = this.queue;
    this.queue = [];
    this.queuedRows = 0;
    // Split into groups of at most maxRows rows, never splitting one caller's rows.
    const groups: (typeof jobs)[] = [];
    let group: typeof jobs = [];
    let size = 0;
    for (const job of jobs) {
      if (size + job.rows.length > this.maxRows && group.length) {
        groups.push(group);
        group = [];
        size = 0;
      }
      group.push(job);
      size += job.rows.length;
    }
    if (group.length) groups.push(group);
    for (const g of groups) await this.writeGroup(g);
  }

  private async writeGroup(jobs: typeof this.queue): Promise<void> {
    if (jobs.length === 1) {
      const job = jobs[0]!;
      await this.write(job.rows).then(job.resolve, job.reject);
      return;
    }
    let out: Out[];
    try {
      out = await this.write(jobs.flatMap((j) => j.rows));
    } catch (err) {
      if (isDbUnavailable(err)) {
        for (const job of jobs) job.reject(err);
        return;
      }
      for (const job of jobs) await this.write(job.rows).then(job.resolve, job.reject);
      return;
    }
    let at = 0;
    for (const job of jobs) {
      job.resolve(out.slice(at, at + job.rows.length));
      at += job.rows.length;
    }
  }
}

/** The next turn of the event loop on Node; a zero timer elsewhere. */
function deferDefault(fn: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(fn);
  else setTimeout(fn, 0);
}

/**
 * Whether this runtime may share one write between requests. Node may; Cloudflare Workers
 * must not resolve one request's promise from another request's I/O.
 */
export const canGroupCommit = (): boolean =>
  (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent !== 'Cloudflare-Workers';

/** Writes are gathered turn by turn of the event loop, up to this many turns while rows keep arriving. */
const WINDOW_TURNS = 4;

/** Whether this runtime shares writes between requests (fixed for the life of the process or isolate). */
const GROUP_COMMIT = canGroupCommit();

/** One writer per app (tests build many apps, each with its own database). */
const sinks = new WeakMap<AppDeps, GroupCommit<EventWrite, true>>();

/** Stores analytics events, sharing the write with concurrent requests where the runtime allows; answers how many. */
export function recordEvents(deps: AppDeps, events: EventWrite[]): Promise<number> {
  if (!GROUP_COMMIT) return insertEvents(deps.db, events);
  let sink = sinks.get(deps);
  if (!sink) {
    sink = new GroupCommit(
      async (rows) => {
        await insertEvents(deps.db, rows);
        return rows.map(() => true as const);
      },
      500,
      deferDefault,
      WINDOW_TURNS,
    );
    sinks.set(deps, sink);
  }
  return sink.add(events).then((stored) => stored.length);
}

/** The part of Node's IncomingMessage the raw body read uses (kept structural: this file is bundled for the edge too). */
interface NodeBody {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly complete: boolean;
  readonly readableLength: number;
  readonly readableFlowing: boolean | null;
  readonly readableDidRead: boolean;
  readonly readableEnded: boolean;
  read(): Uint8Array | null;
  pause(): unknown;
  resume(): unknown;
  on(event: string, fn: (arg: never) => void): unknown;
  off(event: string, fn: (arg: never) => void): unknown;
}

/** The unread Node request stream @hono/node-server passes as `c.env.incoming`; undefined elsewhere (Worker, app.request()). */
function nodeBody(c: Context): NodeBody | undefined {
  const incoming = (c.env as { incoming?: Partial<NodeBody> } | undefined)?.incoming;
  if (!incoming || typeof incoming.read !== 'function' || typeof incoming.on !== 'function') return undefined;
  return incoming.readableDidRead || incoming.readableFlowing ? undefined : (incoming as NodeBody);
}

/**
 * The request body straight from Node's stream, at most BODY_LIMIT_BYTES (413 past it, chunked
 * bodies included). @hono/node-server's c.req.text() builds a web Request and stream around the
 * same bytes; a small body has usually been parsed with the headers and is taken at once.
 */
async function readNodeBody(incoming: NodeBody): Promise<Uint8Array> {
  // Handlers start when the headers are parsed; a body in the same packet is buffered before
  // microtasks run, so one turn later all its declared bytes are usually there to take at once.
  const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
  if (!incoming.complete && declared >= 0) await undefined;
  return takeNodeBody(incoming, declared) ?? streamNodeBody(incoming);
}

/** The whole body when it is already buffered (then the stream is left flowing, to end); else undefined. */
function takeNodeBody(incoming: NodeBody, declared: number): Uint8Array | undefined {
  if (incoming.readableFlowing !== null || !(incoming.complete || incoming.readableLength === declared)) return;
  if (incoming.readableLength > BODY_LIMIT_BYTES) throw payloadTooLarge();
  const body = incoming.read() ?? new Uint8Array(0);
  // Flowing from here, the stream ends (emits 'end') as soon as the parser has seen the end of
  // the message: left paused it would still be open when the answer goes out, and
  // @hono/node-server would then set two timers per request to drain it.
  incoming.resume();
  return body;
}

/** The body as it streams in, counted against BODY_LIMIT_BYTES. */
function streamNodeBody(incoming: NodeBody): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const finish = (err: unknown, body?: Uint8Array) => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
      if (err) reject(err);
      else resolve(body!);
    };
    const onData = (chunk: Uint8Array) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        // The rest is drained by the server once the 413 is sent.
        incoming.pause();
        finish(payloadTooLarge());
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      if (chunks.length === 1) return finish(null, chunks[0]);
      const body = new Uint8Array(size);
      let at = 0;
      for (const chunk of chunks) {
        body.set(chunk, at);
        at += chunk.length;
      }
      finish(null, body);
    };
    const onError = (err: unknown) => finish(err);
    const onClose = () => {
      if (!incoming.readableEnded) finish(new Error('The client closed the connection before the body ended'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

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

/** The rows of parsed events, with the request's user agent and hashed IP. */
export function eventRows(events: InteractionInput[], userAgent: string | null, ipHash: string): EventWrite[] {
  return events.map((e) => ({
    interaction_type: e.interaction_type,
    target_type: e.target_type,
    target_id: e.target_id ?? null,
    server_id: e.server_id ?? null,
    metadata: e.metadata ?? null,
    session_id: e.session_id || null,
    user_agent: userAgent,
    ip_address: ipHash,
    campaign_id: e.campaign_id || null,
    referrer: e.referrer || null,
    utm_source: e.utm_source || null,
    utm_medium: e.utm_medium || null,
    utm_campaign: e.utm_campaign || null,
  }));
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

/**
 * `POST /api/events`: one event or a batch of up to 50, as JSON or as the text/plain string
 * navigator.sendBeacon sends; typed for `hc` as the union of the two. What only the page sees
 * (view, save, unsave, share), stored without conversion value: a batch naming a click, signup,
 * report or conversion is refused whole (400 naming the field), since only the server records those.
 */
export function eventsHandler(deps: AppDeps): Handler<AppEnv, '/', { in: { json: z.input<typeof eventsSchema> } }> {
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
      return json({ accepted: await recordEvents(deps, rows) }, 202);
    } catch (err) {
      // The chain (and its headers) is not around this handler: its errors are answered here, as app.onError would.
      const { status, body, headers } = errorAnswer(err, crypto.randomUUID());
      return json(body, status, headers);
    }
  };
}
