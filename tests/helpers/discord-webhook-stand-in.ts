import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Execute Webhook request as the stand-in received it. */
export interface WebhookPost {
  id: string;
  token: string;
  query: string;
  body: { content?: string; allowed_mentions?: unknown; username?: string };
}

/**
 * A loopback stand-in for Discord's Execute Webhook (`POST /api/webhooks/{id}/{token}?wait=true`,
 * from Discord's webhook documentation): 200 with a message object, or the status a test queues for
 * a webhook id (`answers`: each request takes the next; 404 with Unknown Webhook, code 10015).
 */
export interface DiscordWebhookStandIn {
  /** What a test passes as DISCORD_WEBHOOK_BASE: `http://127.0.0.1:PORT/api/webhooks`. */
  url: string;
  posts: WebhookPost[];
  /** Statuses to answer next, per webhook id (then 200). */
  answers: Map<string, number[]>;
  close(): Promise<void>;
}

export async function startDiscordWebhookStandIn(): Promise<DiscordWebhookStandIn> {
  const standIn = { posts: [] as WebhookPost[], answers: new Map<string, number[]>() } as DiscordWebhookStandIn;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const m = /^\/api\/webhooks\/(\d+)\/([^/]+)$/.exec(url.pathname);
    if (req.method !== 'POST' || !m) {
      res.writeHead(405, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ message: '405: Method Not Allowed', code: 0 }));
    }
    const [, id, token] = m as unknown as [string, string, string];
    let body: WebhookPost['body'] = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {}
    standIn.posts.push({ id, token, query: url.search, body });
    const status = standIn.answers.get(id)?.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    if (status === 404) return res.end(JSON.stringify({ message: 'Unknown Webhook', code: 10015 }));
    if (status === 401) return res.end(JSON.stringify({ message: '401: Unauthorized', code: 0 }));
    if (status >= 400) return res.end(JSON.stringify({ message: 'Internal Server Error', code: 0 }));
    return res.end(JSON.stringify({ id: '1300000000000000001', type: 0, content: body.content, webhook_id: id }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks`;
  standIn.close = () => new Promise<void>((ok) => server.close(() => ok()));
  return standIn;
}
