import type { MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';

/**
 * hono/body-limit (413 through `onError` past `maxSize`), without making @hono/node-server build a
 * web Request for a body whose size is known from the headers. hono/body-limit looks at
 * `c.req.raw.body` first; on Node that one read turns the lightweight request into an undici
 * Request with a ReadableStream over the socket and an AbortSignal, and the handler's own
 * `c.req.text()` then reads through that stream instead of straight from Node's request (a fifth
 * of the CPU of `POST /api/events`, and half its throughput). So: no body (GET, HEAD: a web
 * Request never has one) passes, a declared Content-Length is compared as hono/body-limit compares
 * it, and only a body of unknown size (chunked, HTTP/2 without a length) is counted as it streams,
 * by hono/body-limit itself.
 */
export function bodyLimit(options: { maxSize: number; onError: () => never }): MiddlewareHandler {
  const counted = honoBodyLimit(options);
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number.parseInt(length, 10) > options.maxSize) options.onError();
      return next();
    }
    return counted(c, next);
  };
}
