import type { Context } from 'hono';
import type { z } from 'zod';
import type { FieldLabels } from '../../../src/lib/schemas/labels';
import { ApiError, validationError } from './errors';
import { header } from './header';

/** Largest request body any public endpoint reads. */
export const BODY_LIMIT_BYTES = 32 * 1024;

export type BodyKind = 'json' | 'form';

/** The 413 of a body over BODY_LIMIT_BYTES. */
export const payloadTooLarge = () =>
  new ApiError(413, 'payload_too_large', `The body is larger than ${BODY_LIMIT_BYTES / 1024} KB`);

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
export function nodeBody(c: Context): NodeBody | undefined {
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

/**
 * The request body from a web Request (Worker, app.request()), at most BODY_LIMIT_BYTES: a
 * declared length is checked first, and a streamed body is counted as it arrives (413 past it).
 */
async function readWebBody(c: Context): Promise<Uint8Array> {
  const declared = Number(c.req.header('content-length') ?? Number.NaN);
  if (declared > BODY_LIMIT_BYTES) throw payloadTooLarge();
  const stream = c.req.raw.body;
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > BODY_LIMIT_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return body;
}

const utf8 = new TextDecoder();

/**
 * Reads a JSON or urlencoded/multipart form body (415 for anything else, 400 when malformed)
 * into a plain object. Repeated form fields become arrays.
 */
export async function readBody(c: Context): Promise<{ kind: BodyKind; data: unknown }> {
  const contentType = header(c, 'content-type') ?? '';
  const semi = contentType.indexOf(';');
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  const incoming = nodeBody(c);
  if (type === 'application/json' || type === 'text/plain') {
    // text/plain is what navigator.sendBeacon sends for a string body. readNodeBody inlined: the
    // busiest endpoints take a buffered body after a single turn, without another async layer.
    let bytes: Uint8Array;
    if (incoming) {
      const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
      if (!incoming.complete && declared >= 0) await undefined;
      bytes = takeNodeBody(incoming, declared) ?? (await streamNodeBody(incoming));
    } else bytes = await readWebBody(c);
    const raw = utf8.decode(bytes);
    try {
      return { kind: 'json', data: JSON.parse(raw) };
    } catch {
      throw new ApiError(400, 'invalid_json', 'The body is not valid JSON');
    }
  }
  if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    let entries: Iterable<[string, FormDataEntryValue]>;
    try {
      const bytes = await (incoming ? readNodeBody(incoming) : readWebBody(c));
      if (type === 'multipart/form-data') {
        entries = (
          await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData()
        ).entries();
      } else entries = new URLSearchParams(utf8.decode(bytes)).entries();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError(400, 'invalid_form', 'The form body could not be read');
    }
    const data: Record<string, string | string[]> = {};
    for (const [key, value] of entries) {
      if (typeof value !== 'string') continue;
      const prev = data[key];
      data[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    }
    return { kind: 'form', data };
  }
  throw new ApiError(415, 'unsupported_media_type', 'Send application/json or a form body');
}

/**
 * Parses `data` with `schema`, throwing the 400 envelope with every bad field named (by its label
 * when the form's `labels` are given).
 */
export function parseWith<S extends z.ZodType>(schema: S, data: unknown, labels?: FieldLabels): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw validationError(result.error, labels);
  return result.data;
}

/**
 * The hook every `zValidator(target, schema, validationHook)` passes: a failed parse throws the
 * 400 envelope naming each bad field, which `app.onError` answers (one error envelope).
 */
export function validationHook(result: { success: true } | { success: false; error: z.core.$ZodError }): void {
  if (!result.success) throw validationError(result.error as z.ZodError);
}
