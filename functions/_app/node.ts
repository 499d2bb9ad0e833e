import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Cron } from 'croner';
import { openDb } from '../../db/client';
import { migrateDb } from '../../db/migrate';
import { ensureFirstOperator } from '../../db/queries/operators';
import { seedIfEmpty } from '../../db/seed';
import { deploymentFacts } from '../../src/data/site-data';
import { createApp } from './app';
import { nodeMailFor } from './clients/mail-smtp';
import type { RebuildTrigger } from './context';
import { type Env, loadEnv, rawProcessEnv, setProcessEnv, startProblems } from './env';
import { type JobContext, SCHEDULE } from './jobs/schedule';
import { badgeTallyFor } from './lib/badge-tally';
import { MemoryRateLimitStore, RATE_LIMITS } from './lib/rate-limits';
import { createRenderGate, RenderRefused } from './lib/render-gate';
import { localSecrets } from './local-secrets';
import { createOnDemandPages } from './on-demand';
import { siteRedirect } from './routes/site-redirects';
import { SiteBuilder } from './site-builder';
import { createPageReader, createStaticHandler } from './static';

export interface NodeServerOptions {
  env: Env;
  /** Project root; defaults to the working directory. */
  root?: string;
  /** Where builds go; defaults to `<root>/.builds`. */
  buildsDir?: string;
  /** Environment passed to `astro build`. */
  buildEnv?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

/**
 * Starts the whole product on Node: migrates and seeds the database, builds the site
 * when no build is live, then serves the API and the static site on one port.
 */
export async function startNodeServer(options: NodeServerOptions) {
  const { env } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  const root = options.root ?? process.cwd();
  const { db, client } = await openDb({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
  await migrateDb(db);
  if (await seedIfEmpty(db)) log('Seeded the sample servers.');
  if (await ensureFirstOperator(db, env)) log(`Created the first operator (admin) ${env.ADMIN_EMAIL}.`);

  const builder = new SiteBuilder({
    root,
    buildsDir: options.buildsDir ?? join(root, '.builds'),
    env: {
      ...rawProcessEnv(),
      ...options.buildEnv,
      DATABASE_URL: env.DATABASE_URL,
      SITE_URL: env.SITE_URL,
      // The address the pages show is the one this app was started with (claims.ts).
      SUPPORT_EMAIL: env.SUPPORT_EMAIL,
      // Whether /pricing offers buying (#30) and the sponsored cap it states: this app's settings.
      SPONSORED_SLOTS_PER_CATEGORY: String(env.SPONSORED_SLOTS_PER_CATEGORY),
      // The member minimum /requirements and the FAQ state (#32) is the one this app enforces.
      MIN_MEMBERS: String(env.MIN_MEMBERS),
      ...(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? { STRIPE_SECRET_KEY: env.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: env.STRIPE_WEBHOOK_SECRET }
        : {}),
    },
    log,
    // What changed since the live build is kept in the database: a restart builds what it lacks.
    db,
    // A change to a few listings is published by rendering only its pages with the live build's
    // page code (site-publish.ts), not by a full build.
    renderer: env.INCREMENTAL_PUBLISH ? (entry) => onDemand.publishRenderer(entry) : undefined,
  });
  await builder.init();

  // Mail (#16): SMTP from SMTP_URL (or the HTTP provider); with neither, mails wait in the outbox.
  const mail = nodeMailFor({ env });
  log(
    mail
      ? `Mail: sent through ${mail.transport === 'smtp' ? 'SMTP_URL' : 'MAIL_API_URL'}.`
      : 'Mail: no SMTP_URL, so mails wait in the outbox (console: Outbox).',
  );

  // The pages the build did not prerender (#18), rendered by the live build's page code and cached
  // here; every change that asks for a rebuild forgets the cached ones at once.
  // Renders are limited per client and bounded overall (lib/render-gate.ts); cached pages are not.
  const limits = new MemoryRateLimitStore();
  const gate = createRenderGate({
    countClient: (client) => {
      if (!env.RATE_LIMITS) return;
      if (!limits.hit(RATE_LIMITS.renders, client).ok) throw new RenderRefused(429, 60);
    },
  });
  // The settings the build's facts carry (site-data.ts getSiteData): the same on a page rendered here.
  const onDemand = createOnDemandPages({
    entry: () => builder.serverEntry(),
    db,
    ...deploymentFacts(env),
    gate,
  });
  // A changed listing's prerendered page is stale until a build that began after the change is
  // live: until then it is rendered on request, so an approval or an edit shows at once (#18).
  const rebuild: RebuildTrigger = {
    request: async (reason, pages = [], scope = 'site') => {
      onDemand.invalidate();
      await builder.record(reason, pages, scope);
    },
    prepare: (batchDb, reason, pages, scope = 'site', when) => {
      const change = builder.prepareRecord(batchDb, reason, pages, scope, when);
      return {
        statements: change.statements,
        requested: () => {
          onDemand.invalidate();
          change.requested();
        },
      };
    },
    status: () => builder.status(),
  };

  const app = createApp({
    db,
    env,
    mail,
    rebuild,
    contentSecurityPolicy: () => builder.contentSecurityPolicy(),
    staticSite: createStaticHandler(() => builder.liveDir(), {
      redirect: (path) => siteRedirect(db, path),
      onDemand: (request, client) => onDemand.render(request, client),
      stale: (path) => builder.stale(path),
    }),
    sitePage: createPageReader(() => builder.liveDir()),
    clientIp: (_req, raw) =>
      (raw as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ??
      '0.0.0.0',
  });

  if (!builder.liveDir()) {
    log('Building the site from the database (first start)…');
    await builder.buildNow('first start');
  }

  const httpServer = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST });
  await new Promise<void>((ok) => httpServer.once('listening', () => ok()));
  const address = httpServer.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  log(`Listening on http://localhost:${port}`);
  // Every scheduled job (jobs/schedule.ts) on its cron, in UTC, by croner: the refresh unless
  // REFRESH_ENABLED=false, the mail sender while a transport is configured. A run still going when
  // the next is due is not doubled (protect); each job's lease or claim in the database keeps
  // `npm run <job>`, the Worker and other replicas from overlapping with it. The timers never keep
  // the process alive by themselves (unref). Unnamed: croner keeps named jobs in one registry per
  // process, and a second server in the same process (tests) would collide with the first's names.
  const jobContext: JobContext = { db, env, runtime: 'node', rebuild, mail, log };
  const runs = new Set<Promise<unknown>>();
  const crons = SCHEDULE.filter(
    (job) => (job.name !== 'refresh' || env.REFRESH_ENABLED) && (job.name !== 'mail' || mail),
  ).map(
    (job) =>
      new Cron(job.nodeCron ?? job.cron, { timezone: 'UTC', protect: true, unref: true }, async () => {
        const run = job
          .run(jobContext, Date.now())
          .catch((err: unknown) => log(`Job ${job.name} failed: ${String(err)}`));
        runs.add(run);
        await run;
        runs.delete(run);
      }),
  );
  return {
    port,
    builder,
    onDemand,
    db,
    close: async () => {
      for (const cron of crons) cron.stop();
      // A rebuild still running is stopped: its folder is removed, the live build stays.
      await builder.close();
      await Promise.all(runs);
      mail?.close?.();
      await new Promise<void>((ok) => httpServer.close(() => ok()));
      // Badge fetches counted since the last write are stored before the database closes.
      await badgeTallyFor(db)
        .flush()
        .catch((err: unknown) => log(`Badge fetch counts not stored: ${String(err)}`));
      client.close();
    },
  };
}

// `npm start`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // React (the pages rendered on request) picks its production build by NODE_ENV: its development
  // build checks every render and took about twice the CPU a page.
  setProcessEnv({ ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: rawProcessEnv().NODE_ENV ?? 'production' });
  const given = rawProcessEnv();
  // A public (https) site starts only with its secrets and support address set; a local one is told what it lacks.
  const problems = startProblems(given);
  for (const warning of problems.warnings) console.warn(`Warning: ${warning}`);
  if (problems.errors.length > 0) {
    console.error(`Invalid environment:\n${problems.errors.join('\n')}`);
    process.exit(1);
  }
  // Secrets not set in the environment come from (or are made once into) a git-ignored file (local runs only).
  const local = given.SITE_URL?.startsWith('https:') ? {} : localSecrets(resolve('.local-secrets.json'), given);
  const env = loadEnv({ ...local, ...given });
  await startNodeServer({ env, root: resolve('.') });
}
