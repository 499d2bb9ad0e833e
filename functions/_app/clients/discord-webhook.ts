import type { WebhookPayload } from '../../../src/lib/owners/notifications';
import type { AppDeps } from '../context';

/** What Discord answered an Execute Webhook: delivered, gone for good (404/401: switch it off), or try later. */
export type WebhookAnswer =
  | { kind: 'delivered' }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; status: number | null; error: string };

/** Discord's webhooks (#32), reached at DISCORD_WEBHOOK_BASE (tests: a loopback stand-in). */
export interface DiscordWebhookClient {
  post(webhook: { id: string; token: string }, payload: WebhookPayload): Promise<WebhookAnswer>;
}

const TIMEOUT_MS = 10_000;

/** The client over `fetch` at DISCORD_WEBHOOK_BASE: `POST {base}/{id}/{token}?wait=true` with the JSON body. */
export function discordWebhookFor(deps: Pick<AppDeps, 'env' | 'fetch'>): DiscordWebhookClient {
  const base = deps.env.DISCORD_WEBHOOK_BASE.replace(/\/+$/, '');
  const send = deps.fetch ?? fetch;
  return {
    async post(webhook, payload) {
      try {
        const res = await send(
          `${base}/${encodeURIComponent(webhook.id)}/${encodeURIComponent(webhook.token)}?wait=true`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'user-agent': 'GuildRank (owner notifications)' },
            body: JSON.stringify(payload),
            signal: AbortSignal.timeout(TIMEOUT_MS),
          },
        );
        await res.body?.cancel();
        if (res.ok) return { kind: 'delivered' };
        if (res.status === 404 || res.status === 401) return { kind: 'gone', status: res.status };
        return { kind: 'retry', status: res.status, error: `Discord answered ${res.status}` };
      } catch (err) {
        return { kind: 'retry', status: null, error: err instanceof Error ? err.message : String(err) };
      }
    },
  };
}
