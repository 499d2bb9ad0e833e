import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../functions/_app/app';
import { loadEnv, randomSecret, startProblems } from '../../functions/_app/env';
import { localSecrets } from '../../functions/_app/local-secrets';
import { createTestDb, type TestDb } from '../helpers/db';

let tdb: TestDb | undefined;
const dirs: string[] = [];
afterEach(() => {
  tdb?.cleanup();
  tdb = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const SITE = 'https://guildrank.example';

describe('secrets on a public site', () => {
  it('the app refuses to start on an https SITE_URL without IP_HASH_SECRET and SESSION_SECRET, naming both', async () => {
    tdb = await createTestDb();
    const env = loadEnv({ SITE_URL: SITE });
    expect(() => createApp({ db: tdb!.db, env })).toThrow(/IP_HASH_SECRET: required[\s\S]*SESSION_SECRET: required/);
  });

  it('names the one that is missing', async () => {
    tdb = await createTestDb();
    const env = loadEnv({ SITE_URL: SITE, IP_HASH_SECRET: randomSecret() });
    expect(() => createApp({ db: tdb!.db, env })).toThrow(/SESSION_SECRET: required/);
    expect(() => createApp({ db: tdb!.db, env })).not.toThrow(/IP_HASH_SECRET/);
  });

  it('refuses a short secret or a published example', () => {
    expect(() => loadEnv({ SITE_URL: SITE, IP_HASH_SECRET: 'short', SESSION_SECRET: randomSecret() })).toThrow(
      /IP_HASH_SECRET: too short or a published example/,
    );
    expect(() =>
      loadEnv({ SITE_URL: SITE, IP_HASH_SECRET: randomSecret(), SESSION_SECRET: 'dev-session-secret-change-me' }),
    ).toThrow(/SESSION_SECRET: too short or a published example/);
  });

  it('starts with real secrets', async () => {
    tdb = await createTestDb();
    const env = loadEnv({ SITE_URL: SITE, IP_HASH_SECRET: randomSecret(), SESSION_SECRET: randomSecret() });
    const app = createApp({ db: tdb.db, env });
    expect((await app.request('/api/health')).status).toBe(200);
  });

  it('a local http run gets random secrets, different per process, never a fixed default', () => {
    const a = loadEnv({});
    const b = loadEnv({});
    expect(a.IP_HASH_SECRET.length).toBeGreaterThanOrEqual(43);
    expect(a.IP_HASH_SECRET).not.toBe(b.IP_HASH_SECRET);
    expect(a.SESSION_SECRET).not.toBe(b.SESSION_SECRET);
    expect(a.GENERATED_SECRETS).toEqual(['IP_HASH_SECRET', 'SESSION_SECRET']);
  });
});

describe('npm start checks its settings before anything else', () => {
  it('on an https SITE_URL it refuses to start without IP_HASH_SECRET, SESSION_SECRET and SUPPORT_EMAIL, naming each', async () => {
    const { spawnSync } = await import('node:child_process');
    const dir = mkdtempSync(join(tmpdir(), 'gr-start-'));
    dirs.push(dir);
    const before = statSync(join(process.cwd(), '.local-secrets.json'), { throwIfNoEntry: false })?.mtimeMs;
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(process.cwd(), 'functions/_app/node.ts')], {
      cwd: process.cwd(),
      env: { PATH: process.env.PATH, SITE_URL: SITE, DATABASE_URL: `file:${join(dir, 'x.db')}` },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/IP_HASH_SECRET: required[\s\S]*SESSION_SECRET: required[\s\S]*SUPPORT_EMAIL: required/);
    // Nothing was made up to get round it: the local secrets file is untouched.
    expect(statSync(join(process.cwd(), '.local-secrets.json'), { throwIfNoEntry: false })?.mtimeMs).toBe(before);
    // Above the child's own 60 s: a Node with tsx loading the app took over 30 s on the loaded 2-core machine.
  }, 90_000);

  it('warns on a bare IP or localhost without SUPPORT_EMAIL, and not with one', () => {
    for (const site of ['http://127.0.0.1:4321', 'http://localhost:4321', 'http://[::1]:8080'])
      expect(startProblems({ SITE_URL: site }).warnings.join(' ')).toMatch(/SUPPORT_EMAIL is not set/);
    expect(startProblems({}).warnings).toHaveLength(1);
    expect(startProblems({ SITE_URL: 'http://127.0.0.1:4321', SUPPORT_EMAIL: 'help@example.org' })).toEqual({
      errors: [],
      warnings: [],
    });
    const ok = { IP_HASH_SECRET: randomSecret(), SESSION_SECRET: randomSecret(), SUPPORT_EMAIL: 'help@example.org' };
    expect(startProblems({ SITE_URL: SITE, ...ok })).toEqual({ errors: [], warnings: [] });
  });
});

describe('npm start keeps its local secrets', () => {
  it('makes them once into a file only the owner can read, and the environment wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'guildrank-secrets-'));
    dirs.push(dir);
    const file = join(dir, '.local-secrets.json');
    const first = localSecrets(file, {});
    expect(Object.keys(first).sort()).toEqual(['IP_HASH_SECRET', 'SESSION_SECRET']);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(localSecrets(file, {})).toEqual(first);
    expect(localSecrets(file, { SESSION_SECRET: 'from-env' })).toEqual({ IP_HASH_SECRET: first.IP_HASH_SECRET });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
  });
});
