import { describe, expect, it } from 'vitest';
import { createEdgeHandler, type EdgeBindings } from '../../functions/_app/edge';

const assets: EdgeBindings['ASSETS'] = { fetch: async () => new Response('missing', { status: 404 }) };
const ctx = { waitUntil: () => undefined };

describe('the Worker entry when its settings are wrong', () => {
  it('answers 503 in the API envelope when a variable is invalid', async () => {
    const handle = createEdgeHandler();
    const res = await handle(
      new Request('https://guildrank.example/api/health'),
      { ASSETS: assets, SITE_URL: 'not a url' },
      ctx,
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('misconfigured');
  });

  it('refuses a file database, which the edge cannot open', async () => {
    const handle = createEdgeHandler();
    const res = await handle(
      new Request('https://guildrank.example/api/health'),
      { ASSETS: assets, DATABASE_URL: 'file:db/local.db' },
      ctx,
    );
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('misconfigured');
  });
});
