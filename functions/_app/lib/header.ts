import type { Context } from 'hono';

type NodeHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * A request header (lower-case `name`). On Node it is read from the IncomingMessage's parsed
 * headers, which @hono/node-server's lookup reads as well, without its per-call name checks;
 * elsewhere (Worker, app.request()) from the Request.
 */
export function header(c: Context, name: string): string | undefined {
  const headers = (c.env as { incoming?: { headers?: NodeHeaders } } | undefined)?.incoming?.headers;
  if (headers) {
    const value = headers[name];
    return typeof value === 'string' ? value : value?.join(', ');
  }
  return c.req.header(name);
}
