import { describe, expect, it, vi } from 'vitest';
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

  it('refuses to start on an https site without its secrets, and the log names them', async () => {
    const handle = createEdgeHandler();
    const logged: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args) => void logged.push(...args));
    try {
      const res = await handle(
        new Request('https://guildrank.example/api/health'),
        { ASSETS: assets, SITE_URL: 'https://guildrank.example', DATABASE_URL: 'https://db.example' },
        ctx,
      );
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('misconfigured');
    } finally {
      spy.mockRestore();
    }
    expect(String(logged.find((x) => x instanceof Error))).toMatch(
      /IP_HASH_SECRET: required[\s\S]*SESSION_SECRET: required/,
    );
  });
});
