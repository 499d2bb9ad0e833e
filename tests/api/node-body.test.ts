// Request bodies as `npm start` receives them: @hono/node-server hands the app Node's raw
// request stream, which readBody reads directly (app.request() in the other tests takes the
// web Request path). Real HTTP on loopback, declared and chunked bodies, split packets.

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { countRows, createTestApp, ORIGIN, type TestApp, validSubmission } from './api-harness';

let t: TestApp;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
  t?.cleanup();
});

async function serveTestApp(): Promise<string> {
  t = await createTestApp();
  const server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((ok) => server.once('listening', () => ok()));
  close = () => new Promise<void>((ok) => server.close(() => ok()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const EVENT = JSON.stringify({ interaction_type: 'view', target_type: 'server' });

/** A body sent with chunked transfer encoding (no Content-Length), in pieces. */
const chunked = (...pieces: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of pieces) controller.enqueue(new TextEncoder().encode(p));
      controller.close();
    },
  });

const post = (url: string, type: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': type, origin: ORIGIN, ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);

const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

/** Sends a raw HTTP/1.1 request whose body arrives in a later packet than the headers. */
function splitRequest(base: string, body: string): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
      );
      setTimeout(() => socket.write(body.slice(0, 10)), 30);
      setTimeout(() => socket.write(body.slice(10)), 60);
    });
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString();
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('request bodies read from the Node stream', () => {
  it('stores JSON and sendBeacon text/plain events, declared and chunked', async () => {
    const base = await serveTestApp();
    expect((await post(`${base}/api/events`, 'application/json', EVENT)).status).toBe(202);
    expect((await post(`${base}/api/events`, 'text/plain;charset=UTF-8', EVENT)).status).toBe(202);
    const res = await post(`${base}/api/events`, 'application/json', chunked(EVENT.slice(0, 7), EVENT.slice(7)));
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: 1 });
    expect(await countRows(t.client, 'user_interactions')).toBe(3);
  });

  it('waits for a declared body that arrives after the headers, in pieces', async () => {
    const base = await serveTestApp();
    const answer = await splitRequest(base, EVENT);
    expect(answer).toMatch(/^HTTP\/1\.1 202 /);
    expect(answer).toContain('{"accepted":1}');
    expect(await countRows(t.client, 'user_interactions')).toBe(1);
  });

  it('answers 413 for a body over 32 KB, declared or chunked, and stores nothing', async () => {
    const base = await serveTestApp();
    const big = JSON.stringify({ interaction_type: 'view', target_type: 'server', referrer: 'x'.repeat(40_000) });
    const declared = await post(`${base}/api/events`, 'application/json', big);
    expect(declared.status).toBe(413);
    expect(await errorCode(declared)).toBe('payload_too_large');
    const streamed = await post(
      `${base}/api/events`,
      'application/json',
      chunked(big.slice(0, 20_000), big.slice(20_000)),
    );
    expect(streamed.status).toBe(413);
    expect(await errorCode(streamed)).toBe('payload_too_large');
    const form = await post(
      `${base}/api/submissions`,
      'application/x-www-form-urlencoded',
      chunked(`server_name=${'x'.repeat(20_000)}`, `&features=${'y'.repeat(20_000)}`),
    );
    expect(form.status).toBe(413);
    expect(await countRows(t.client, 'user_interactions')).toBe(0);
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
    // The connection still serves the next request.
    expect((await post(`${base}/api/events`, 'application/json', EVENT)).status).toBe(202);
  });

  it('checks a declared length from the header alone: the chain never opens the web body stream', async () => {
    // hono/body-limit reads c.req.raw.body first; on @hono/node-server that builds an undici
    // Request and a ReadableStream over the socket for every post, and the route then reads through
    // it instead of straight from Node's request (half the events throughput).
    t = await createTestApp();
    let opened = 0;
    const request = (body: string, headers: Record<string, string>) => {
      const req = new Request('http://127.0.0.1/api/events', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, ...headers },
        body,
      });
      const stream = req.body;
      Object.defineProperty(req, 'body', {
        get: () => {
          opened++;
          return stream;
        },
      });
      return req;
    };
    const ok = await t.app.fetch(request(EVENT, { 'content-length': String(Buffer.byteLength(EVENT)) }));
    expect(ok.status).toBe(202);
    const big = JSON.stringify({ interaction_type: 'view', target_type: 'server', referrer: 'x'.repeat(40_000) });
    const refused = await t.app.fetch(request(big, { 'content-length': String(Buffer.byteLength(big)) }));
    expect(refused.status).toBe(413);
    expect(opened).toBe(0);
    // A body of unknown length is still counted as it streams (hono/body-limit).
    const streamed = await t.app.fetch(request(big, { 'transfer-encoding': 'chunked' }));
    expect(streamed.status).toBe(413);
    expect(opened).toBeGreaterThan(0);
    expect(await countRows(t.client, 'user_interactions')).toBe(1);
  });

  it('answers 400 for malformed JSON and 415 for other content types', async () => {
    const base = await serveTestApp();
    const bad = await post(`${base}/api/events`, 'application/json', '{"interaction_type":');
    expect(bad.status).toBe(400);
    expect(await errorCode(bad)).toBe('invalid_json');
    const other = await post(`${base}/api/submissions`, 'application/xml', '<submission/>');
    expect(other.status).toBe(415);
    expect(await errorCode(other)).toBe('unsupported_media_type');
  });

  it('accepts urlencoded and multipart form posts with a 303 to the received screen', async () => {
    const base = await serveTestApp();
    const fields = Object.entries(validSubmission({ is_owner: 'on', terms: 'on' })).map(([k, v]) => [k, String(v)]);
    const urlencoded = await fetch(`${base}/api/submissions`, {
      method: 'POST',
      headers: { origin: ORIGIN },
      body: new URLSearchParams(fields),
      redirect: 'manual',
    });
    expect(urlencoded.status).toBe(303);
    expect(urlencoded.headers.get('location')).toBe('/submit-server/received?email=owner%40example.com');
    const form = new FormData();
    for (const [k, v] of fields) form.append(k!, v!);
    form.append('attachment', new Blob([new Uint8Array([0xff, 0x00, 0xfe])]), 'x.bin');
    const multipart = await fetch(`${base}/api/submissions`, {
      method: 'POST',
      headers: { origin: ORIGIN },
      body: form,
      redirect: 'manual',
    });
    expect(multipart.status).toBe(303);
    expect(multipart.headers.get('location')).toBe('/submit-server/received?email=owner%40example.com');
    const rows = (await t.client.execute('SELECT server_name, features FROM server_submissions')).rows;
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r).toMatchObject({ server_name: 'Pixel Raiders' });
    expect(String(rows[1]!.features)).toContain('Weekly races');
  });
});
