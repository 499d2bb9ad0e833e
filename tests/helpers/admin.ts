import { createOperator, insertOperator } from '../../db/queries/operators';
import { createApp } from '../../functions/_app/app';
import type { AppDeps, ChangeScope, RebuildStatus, RebuildTrigger } from '../../functions/_app/context';
import { loadEnv } from '../../functions/_app/env';
import { hashPassword } from '../../src/lib/password';
import { closeAppDb, createTestDb, type TestDb } from './db';
import { sharedPermissiveStandIn } from './discord-stand-in';

/** The origin the test app believes it serves (SITE_URL). */
export const ORIGIN = 'http://localhost:4321';

/** A listing's fields as the console sends them (POST/PUT /api/admin/servers), `overrides` on top. */
export const consoleListing = <T extends Record<string, unknown>>(overrides: T = {} as T) => ({
  name: 'Alpha Traders',
  description: 'Signals and charts.',
  category: 'Trading',
  members: 500,
  active_users: 50,
  pros: [] as string[],
  cons: [] as string[],
  tags: [] as string[],
  features: [] as string[],
  ...overrides,
});

/** A RebuildTrigger that remembers every request, for asserting what marks the site dirty. */
export class RecordingRebuild implements RebuildTrigger {
  readonly reasons: string[] = [];
  /** The pages each request named, in the same order as `reasons`. */
  readonly pages: (readonly string[])[] = [];
  /** What each request said it may alter (RebuildTrigger.request's scope), in the same order. */
  readonly scopes: (ChangeScope | undefined)[] = [];
  request(reason: string, pages: readonly string[] = [], scope?: ChangeScope): void {
    this.reasons.push(reason);
    this.pages.push(pages);
    this.scopes.push(scope);
  }
  status(): RebuildStatus {
    return {
      state: this.reasons.length ? 'queued' : 'idle',
      liveSince: null,
      lastDurationMs: null,
      lastError: null,
      lastReason: this.reasons.at(-1) ?? null,
    };
  }
}

/** The password of the operators `signIn` makes. */
const SIGN_IN_PASSWORD = 'correct horse battery staple';
/**
 * Its hash, made once per test process at the production cost (hashPassword's default iterations,
 * so sign-in verifies it at full cost and never rehashes): a full run signs in a few hundred
 * operators, and hashing each one's password again cost about 22 ms of CPU a time. Operators a
 * test adds itself (`addOperator`) go through createOperator and its hashing as before.
 */
let signInHash: Promise<string> | undefined;

/** A signed-in console client: its cookie and CSRF token. */
export interface Session {
  cookie: string;
  csrf: string;
}

/** A fresh database, app and rebuild recorder, with helpers to sign in and call /api/admin. */
export async function createAdminHarness(options: { env?: Record<string, string>; deps?: Partial<AppDeps> } = {}) {
  const testDb: TestDb = await createTestDb();
  const rebuild = new RecordingRebuild();
  // Discord is the shared permissive stand-in unless the options name another.
  const discord = options.deps?.discord ? {} : { DISCORD_API_BASE: (await sharedPermissiveStandIn()).url };
  const env = loadEnv({ DATABASE_URL: testDb.url, SITE_URL: ORIGIN, ...discord, ...options.env });
  const app = createApp({ db: testDb.db, env, rebuild, ...options.deps });

  const addOperator = (email: string, password: string, role: 'admin' | 'moderator' = 'admin') =>
    createOperator(testDb.db, { email, password, role });

  const loginResponse = (email: string, password: string, headers: Record<string, string> = {}) =>
    app.request('/api/admin/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, ...headers },
      body: JSON.stringify({ email, password }),
    });

  async function login(email: string, password: string): Promise<Session> {
    const res = await loginResponse(email, password);
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { csrfToken: string };
    const setCookie = res.headers.get('set-cookie') ?? '';
    return { cookie: setCookie.split(';')[0]!, csrf: body.csrfToken };
  }

  /** Signs in a new operator of the given role. */
  async function signIn(role: 'admin' | 'moderator' = 'admin'): Promise<Session> {
    const email = `${role}-${crypto.randomUUID().slice(0, 8)}@example.com`;
    signInHash ??= hashPassword(SIGN_IN_PASSWORD);
    await insertOperator(testDb.db, { email, passwordHash: await signInHash, role });
    return login(email, SIGN_IN_PASSWORD);
  }

  /** Calls /api/admin with the session's cookie, same-origin Origin and CSRF header; JSON bodies. */
  function call(
    session: Session | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    return app.request(path, {
      method,
      headers: {
        origin: ORIGIN,
        ...(session ? { cookie: session.cookie, 'x-csrf-token': session.csrf } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }

  return {
    ...testDb,
    /** Stores the badge fetches still counted in memory, then closes and deletes the database. */
    cleanup: () => closeAppDb(testDb),
    app,
    env,
    rebuild,
    addOperator,
    loginResponse,
    login,
    signIn,
    call,
  };
}
