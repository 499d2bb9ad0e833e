import { describe, expect, it, vi } from 'vitest';
import { buildSettingsOf } from '../../functions/_app/build-settings';
import { createEdgeHandler, type EdgeBindings, startRefusal } from '../../functions/_app/edge';
import { loadEnv, randomSecret } from '../../functions/_app/env';

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

  it('refuses to start when a setting the build wrote into the pages differs from its own, naming it', async () => {
    const buildSettings = {
      ...buildSettingsOf(loadEnv({ SITE_URL: 'https://guildrank.example' })),
      TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
    };
    const bindings = {
      ASSETS: assets,
      SITE_URL: 'https://guildrank.example',
      DATABASE_URL: 'https://db.example',
      IP_HASH_SECRET: randomSecret(),
      SESSION_SECRET: randomSecret(),
    };
    const logged: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args) => void logged.push(...args));
    try {
      // The Worker has no site key: the pages would show a widget whose posts nothing checks.
      const res = await createEdgeHandler({ buildSettings })(
        new Request('https://guildrank.example/api/health'),
        bindings,
        ctx,
      );
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('misconfigured');
      // The site key without the secret that checks it.
      const half = await createEdgeHandler({ buildSettings })(
        new Request('https://guildrank.example/api/health'),
        { ...bindings, TURNSTILE_SITE_KEY: buildSettings.TURNSTILE_SITE_KEY },
        ctx,
      );
      expect(half.status).toBe(503);
    } finally {
      spy.mockRestore();
    }
    const errors = logged.filter((x) => x instanceof Error).map(String);
    expect(errors[0]).toMatch(
      /TURNSTILE_SITE_KEY: the build used "1x00000000000000000000AA", the Worker has \(unset\)/,
    );
    expect(errors[1]).toMatch(/TURNSTILE_SECRET: required with TURNSTILE_SITE_KEY/);
  });

  it('starts when its shared settings are the build’s', () => {
    const env = loadEnv({ SITE_URL: 'https://guildrank.example', TURNSTILE_SITE_KEY: 'k', TURNSTILE_SECRET: 's' });
    expect(startRefusal(buildSettingsOf(env), env)).toEqual([]);
  });
});
