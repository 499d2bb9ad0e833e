import type { Client } from '@libsql/client';
import { createServer, type Server, type ServerWrite } from '../../db/queries/servers';
import { createApp } from '../../functions/_app/app';
import type { AppDeps } from '../../functions/_app/context';
import { loadEnv } from '../../functions/_app/env';
import { closeAppDb, createTestDb, type TestDb } from '../helpers/db';
import { sharedPermissiveStandIn } from '../helpers/discord-stand-in';

/** The site origin every test app is configured with; browser-like requests send it as Origin. */
export const ORIGIN = 'http://localhost:4321';

export type TestApp = Omit<TestDb, 'cleanup'> & {
  app: ReturnType<typeof createApp>;
  /** Stores the badge fetches still counted in memory, then closes and deletes the database. */
  cleanup: () => Promise<void>;
};

/**
 * A real app over a fresh migrated libSQL file; `env` and `deps` override the defaults. Discord is
 * the shared permissive stand-in (every invite works) unless `env` or `deps` name another.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  deps: Partial<Omit<AppDeps, 'db' | 'env'>> = {},
): Promise<TestApp> {
  const tdb = await createTestDb();
  const discord = deps.discord ? {} : { DISCORD_API_BASE: (await sharedPermissiveStandIn()).url };
  const app = createApp({ db: tdb.db, env: loadEnv({ SITE_URL: ORIGIN, ...discord, ...env }), ...deps });
  return { ...tdb, app, cleanup: () => closeAppDb(tdb) };
}

/** POSTs a JSON body as a browser on the site would (Origin set). */
export function postJson(
  app: TestApp['app'],
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

/** POSTs an urlencoded form as the no-JavaScript page would (Origin set). */
export function postForm(
  app: TestApp['app'],
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return Promise.resolve(
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** Row count of a table. */
export async function countRows(client: Client, table: string): Promise<number> {
  const rs = await client.execute(`SELECT count(*) AS n FROM ${table}`);
  return Number(rs.rows[0]?.n ?? 0);
}

let serial = 0;
/** Stores one listed server; every field can be overridden. */
export function seedServer(db: TestDb['db'], overrides: Partial<ServerWrite> = {}): Promise<Server> {
  serial++;
  return createServer(db, {
    name: `Test Server ${serial}`,
    description: 'A community used by the tests.',
    category: 'Gaming',
    members: 1000,
    affiliate_link: `https://discord.gg/test${serial}`,
    ...overrides,
  });
}

/** A submission body that passes validation. */
export const validSubmission = (overrides: Record<string, unknown> = {}) => ({
  server_name: 'Pixel Raiders',
  server_description: 'A friendly community for retro platformer speedrunners and collectors.',
  category: 'Gaming',
  invite_link: 'https://discord.gg/pixelraid',
  server_image: 'https://cdn.example.com/pixel.png',
  contact_email: 'Owner@Example.com',
  features: 'Weekly races\n- Leaderboards\n\nMod tools',
  member_count: '1,250',
  active_users: 140,
  submitter_name: 'Ada',
  is_owner: true,
  terms: true,
  ...overrides,
});

/** A loopback HTTP stand-in for Turnstile's siteverify: answers like Cloudflare for its published test secrets. */
export interface SiteverifyStandIn {
  url: string;
  /** How many checks it has answered. */
  asked: number;
  close(): Promise<void>;
}

/** Starts the siteverify stand-in on 127.0.0.1 (a free port). */
export async function startSiteverify(): Promise<SiteverifyStandIn> {
  const { createServer } = await import('node:http');
  const standIn = { asked: 0 } as SiteverifyStandIn;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = await new Response(Buffer.concat(chunks), {
      headers: { 'content-type': String(req.headers['content-type']) },
    }).formData();
    standIn.asked++;
    const success = String(form.get('secret')).startsWith('1x') && String(form.get('response') ?? '').length > 0;
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify(
        success ? { success: true, 'error-codes': [] } : { success: false, 'error-codes': ['invalid-input-response'] },
      ),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  standIn.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/turnstile/v0/siteverify`;
  standIn.close = () => new Promise<void>((ok) => server.close(() => ok()));
  return standIn;
}

/** The env of an app with Turnstile on (both keys), checking at `standIn`. */
export const turnstileEnv = (standIn: { url: string }, secret: string): Record<string, string> => ({
  TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
  TURNSTILE_SECRET: secret,
  TURNSTILE_SITEVERIFY_URL: standIn.url,
});

/** Cloudflare's published Turnstile test secrets. */
export const TURNSTILE_PASS = '1x0000000000000000000000000000000AA';
export const TURNSTILE_FAIL = '2x0000000000000000000000000000000AA';
