import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScript } from '../helpers/run-script';

const root = resolve(import.meta.dirname, '../..');

describe('npm run deploy', () => {
  it('stops before touching anything when the Turso and Cloudflare credentials are missing, naming each', () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
    const run = spawnSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/deploy.ts'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 80_000,
    });
    expect(run.status).toBe(1);
    for (const name of [
      'DATABASE_URL',
      'DATABASE_AUTH_TOKEN',
      'SITE_URL',
      'CLOUDFLARE_API_TOKEN',
      'CLOUDFLARE_ACCOUNT_ID',
    ]) {
      expect(run.stderr).toContain(name);
    }
    expect(run.stdout).not.toContain('== migrate');
  }, 90_000);

  it('refuses a file database: production needs Turso', () => {
    const run = spawnSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/deploy.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: 'file:db/local.db',
        DATABASE_AUTH_TOKEN: 'x',
        SITE_URL: 'https://guildrank.example',
        CLOUDFLARE_API_TOKEN: 'x',
        CLOUDFLARE_ACCOUNT_ID: 'x',
      },
      encoding: 'utf8',
      timeout: 80_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/DATABASE_URL: the Turso URL/);
  }, 90_000);

  it('refuses a wrangler config without REFRESH_LOOKUPS_PER_PASS, or with an invalid setting, before the database', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deploy-vars-'));
    try {
      // The repository's config with the pace taken out of [vars] and a support address that is none.
      const config = join(dir, 'wrangler.toml');
      writeFileSync(
        config,
        readFileSync(join(root, 'wrangler.toml'), 'utf8')
          .replace(/^REFRESH_LOOKUPS_PER_PASS = .*$/m, '')
          .replace(/^SITE_URL = .*$/m, 'SITE_URL = "https://guildrank.gg"\nSUPPORT_EMAIL = "nobody"'),
      );
      const run = spawnSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/deploy.ts'], {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          // Never reached: a closed port.
          DATABASE_URL: 'https://127.0.0.1:9',
          DATABASE_AUTH_TOKEN: 'x',
          CLOUDFLARE_API_TOKEN: 'x',
          CLOUDFLARE_ACCOUNT_ID: 'x',
          WRANGLER_CONFIG: config,
        },
        encoding: 'utf8',
        timeout: 80_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/REFRESH_LOOKUPS_PER_PASS: not set in .*wrangler\.toml \[vars\]/);
      expect(run.stderr).toMatch(/SUPPORT_EMAIL: must be an email address/);
      expect(run.stdout).not.toContain('== migrate');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it("reads the Worker's secrets before the database, and names each one it would refuse to start without", async () => {
    // Cloudflare's API as wrangler secret list asks it: the Worker has some of step 5's secrets,
    // the Stripe pair (buying is open there), and a shared setting set as a secret.
    const asked: string[] = [];
    const api = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      const secrets = [
        'DATABASE_URL',
        'DATABASE_AUTH_TOKEN',
        'IP_HASH_SECRET',
        'STRIPE_SECRET_KEY',
        'STRIPE_WEBHOOK_SECRET',
        'MIN_MEMBERS',
      ];
      const found = req.url === '/client/v4/accounts/acct-1/workers/scripts/guildrank/secrets';
      res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: found,
          errors: found ? [] : [{ code: 7003, message: 'No route' }],
          messages: [],
          result: found ? secrets.map((name) => ({ name, type: 'secret_text' })) : null,
        }),
      );
    });
    await new Promise<void>((ok) => api.listen(0, '127.0.0.1', ok));
    const dir = mkdtempSync(join(tmpdir(), 'deploy-secrets-'));
    try {
      const config = join(dir, 'wrangler.toml');
      writeFileSync(
        config,
        readFileSync(join(root, 'wrangler.toml'), 'utf8').replace(
          /^SITE_URL = .*$/m,
          'SITE_URL = "https://guildrank.gg"\nSUPPORT_EMAIL = "support@guildrank.gg"',
        ),
      );
      const run = await runScript('scripts/deploy.ts', [], {
        // Never reached: a closed port.
        DATABASE_URL: 'https://127.0.0.1:9',
        DATABASE_AUTH_TOKEN: 'x',
        CLOUDFLARE_API_TOKEN: 'token-for-tests',
        CLOUDFLARE_ACCOUNT_ID: 'acct-1',
        CLOUDFLARE_API_BASE_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}/client/v4`,
        WRANGLER_CONFIG: config,
        // This deploy has no Stripe keys: its pages would say buying is closed.
        STRIPE_SECRET_KEY: '',
        STRIPE_WEBHOOK_SECRET: '',
      });
      expect(run.code).toBe(1);
      expect(asked).toContain('GET /client/v4/accounts/acct-1/workers/scripts/guildrank/secrets');
      expect(run.out).toMatch(/SESSION_SECRET: not a secret of the Worker/);
      expect(run.out).toMatch(/MIN_MEMBERS: a secret of the Worker, which the build does not see/);
      expect(run.out).toMatch(/STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: the Worker has both/);
      expect(run.out).not.toContain('== migrate');
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((ok) => api.close(ok));
    }
  }, 90_000);
});
