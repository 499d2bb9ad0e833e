import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { randomSecret } from '../../functions/_app/env';
import { type LibsqlHttpServer, startLibsqlHttpServer } from '../fixtures/libsql-http-server';
import { createTestDb, type TestDb } from './db';

/** A free TCP port on loopback (the OS picks it; we release it for the child to take). */
export const freePort = () =>
  new Promise<number>((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => ok(port));
    });
  });

export interface WranglerDev {
  url: string;
  /** Everything wrangler printed, for failure messages. */
  output: () => string;
  /** Kills wrangler and workerd (its process group) and waits for the exit. */
  stop: () => Promise<void>;
}

export type WranglerDevOptions = {
  /** Scratch folder for the config, state and logs. */
  dir: string;
  vars: Record<string, string>;
  /** Milliseconds to wait for the first answer (the first bundle is slow on 2 cores). */
  readyTimeoutMs?: number;
} & (
  | {
      /** Folder served as the static assets. */
      assets: string;
      /** TOML appended to the generated config (e.g. wrangler.toml's `[[ratelimits]]`). */
      extraConfig?: string;
    }
  | {
      /**
       * The config of a built Worker (`<outDir>/server/wrangler.json` of an ASTRO_ADAPTER=cloudflare
       * build: site-worker.ts bundled with the on-demand pages, its assets in `<outDir>/client`), run as built.
       */
      builtConfig: string;
    }
);

/**
 * Runs a Worker in workerd through `wrangler dev` and resolves once /api/health answers (any
 * status): polling, no fixed sleep. Either the Worker entry functions/worker.ts with `assets`, under
 * a config written to `dir` that mirrors wrangler.toml, or a built Worker (`builtConfig`).
 */
export async function startWranglerDev(options: WranglerDevOptions): Promise<WranglerDev> {
  const root = resolve(import.meta.dirname, '../..');
  const [port, inspectorPort] = [await freePort(), await freePort()];
  mkdirSync(options.dir, { recursive: true });
  let config: string;
  if ('builtConfig' in options) config = options.builtConfig;
  else {
    config = join(options.dir, 'wrangler.toml');
    writeFileSync(
      config,
      [
        'name = "guildrank-test"',
        `main = ${JSON.stringify(join(root, 'functions/worker.ts'))}`,
        'compatibility_date = "2026-10-01"',
        '[assets]',
        `directory = ${JSON.stringify(options.assets)}`,
        'binding = "ASSETS"',
        'html_handling = "drop-trailing-slash"',
        'not_found_handling = "none"',
        'run_worker_first = ["/api/*", "/go/*", "/badge/*", "/embed/*", "/*/"]',
        options.extraConfig ?? '',
        '',
      ].join('\n'),
    );
  }
  const args = [
    join(root, 'node_modules/wrangler/bin/wrangler.js'),
    'dev',
    '--config',
    config,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspectorPort),
    '--persist-to',
    join(options.dir, 'state'),
    '--show-interactive-dev-session=false',
    '--live-reload=false',
    '--log-level',
    'info',
  ];
  for (const [k, v] of Object.entries(options.vars)) args.push('--var', `${k}:${v}`);
  let out = '';
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: options.dir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_LOG_PATH: join(options.dir, 'logs'),
      XDG_CONFIG_HOME: join(options.dir, 'config'),
      CI: '1',
      NO_COLOR: '1',
    },
  });
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  let gone = false;
  void exited.then(() => {
    gone = true;
  });

  const stop = async () => {
    if (gone || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      if (!gone && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, 5000);
    await exited;
    clearTimeout(timer);
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 180_000);
  while (true) {
    if (gone) throw new Error(`wrangler dev exited before answering:\n${out}`);
    try {
      // Each try has its own timeout: a request wrangler accepted but never answered would
      // otherwise hold the loop past the deadline (the hook then times out with no output).
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(15_000) });
      await res.arrayBuffer();
      break;
    } catch {
      // Not listening yet, or not answering yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev did not answer within the timeout:\n${out}`);
    }
    await new Promise((ok) => setTimeout(ok, 250));
  }
  return { url, output: () => out, stop };
}

/** The Worker in workerd over a libSQL database reached by HTTP, with the pieces a test reads. */
export interface EdgeStack {
  tdb: TestDb;
  libsql: LibsqlHttpServer;
  worker: WranglerDev;
  /** Stops the Worker and the database server, and deletes the folder. */
  stop: () => Promise<void>;
}

/**
 * A fresh migrated database (`prepare` writes its rows), served over HTTP as Turso would, and
 * the real Worker in workerd with `assets` (path under the assets folder -> content) as its
 * static files and random secrets of production length.
 */
export async function startEdgeStack(options: {
  assets: Record<string, string>;
  prepare?: (tdb: TestDb) => Promise<void>;
  extraConfig?: string;
}): Promise<EdgeStack> {
  const token = randomSecret();
  const tdb = await createTestDb();
  await options.prepare?.(tdb);
  const libsql = await startLibsqlHttpServer({ file: tdb.url.replace(/^file:/, ''), authToken: token });
  const assets = join(tdb.dir, 'assets');
  for (const [path, content] of Object.entries(options.assets)) {
    mkdirSync(dirname(join(assets, path)), { recursive: true });
    writeFileSync(join(assets, path), content);
  }
  const worker = await startWranglerDev({
    dir: join(tdb.dir, 'wrangler'),
    assets,
    ...(options.extraConfig ? { extraConfig: options.extraConfig } : {}),
    vars: {
      DATABASE_URL: libsql.url,
      DATABASE_AUTH_TOKEN: token,
      IP_HASH_SECRET: randomSecret(),
      SESSION_SECRET: randomSecret(),
    },
  });
  return {
    tdb,
    libsql,
    worker,
    stop: async () => {
      await worker.stop();
      await libsql.stop();
      tdb.cleanup();
    },
  };
}
