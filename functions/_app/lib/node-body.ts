// A request body straight from Node's request stream, on @hono/node-server, which passes it to the
// app as `c.env.incoming` (its documented binding). readBody (lib/validate.ts) takes it from here;
// where there is none (the Worker, app.request() in tests) it reads the web Request instead.
import type { Context } from 'hono';
import { BODY_LIMIT_BYTES, payloadTooLarge } from './validate';

/** The part of Node's IncomingMessage this reads (structural: this file is bundled for the Worker too). */
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

/**
 * Node's request stream when it is still unread: undefined off Node, and undefined once something
 * opened the web Request's body (hono/body-limit counting a chunked body does), which then holds it.
 */
export function nodeBody(c: Context): NodeBody | undefined {
  const incoming = (c.env as { incoming?: Partial<NodeBody> } | undefined)?.incoming;
  if (!incoming || typeof incoming.read !== 'function' || typeof incoming.on !== 'function') return undefined;
  return incoming.readableDidRead || incoming.readableFlowing ? undefined : (incoming as NodeBody);
}

/**
 * The request body, at most BODY_LIMIT_BYTES (413 past it, chunked bodies included). A small body
 * has usually been parsed with the headers and is taken at once, without the listeners and the
 * promise a streamed read needs.
 */
export async function readNodeBody(incoming: NodeBody): Promise<Uint8Array> {
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
