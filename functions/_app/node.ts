import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { openDb } from '../../db/client';
import { migrateDb } from '../../db/migrate';
import { ensureFirstOperator } from '../../db/queries/operators';
import { seedIfEmpty } from '../../db/seed';
import { createApp } from './app';
import { nodeMailFor } from './clients/mail-smtp';
import type { RebuildTrigger } from './context';
import { type Env, loadEnv, rawProcessEnv, setProcessEnv, startProblems } from './env';
import { MAIL_SEND_EVERY_MS, run as sendMail } from './jobs/mail-sender';
import { run as sendNewsletter } from './jobs/newsletter';
import { REFRESH_EVERY_MS, run as refreshInvites } from './jobs/refresh';
import { SESSION_SWEEP_EVERY_MS, run as sweepSessions } from './jobs/session-sweep';
import { MemoryRateLimitStore, RATE_LIMITS } from './lib/rate-limits';
import { createRenderGate, RenderRefused } from './lib/render-gate';
import { localSecrets } from './local-secrets';
import { nextWeeklySend } from './mail/week';
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
    },
    log,
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
  const onDemand = createOnDemandPages({
    entry: () => builder.serverEntry(),
    db,
    supportEmail: env.SUPPORT_EMAIL,
    gate,
  });
  // A changed listing's prerendered page is stale until a build that began after the change is
  // live: until then it is rendered on request, so an approval or an edit shows at once (#18).
  const changedAt = new Map<string, number>();
  const rebuild: RebuildTrigger = {
    request: (reason, pages = []) => {
      const now = Date.now();
      for (const page of pages) changedAt.set(page, now);
      onDemand.invalidate();
      builder.request(reason);
    },
    status: () => builder.status(),
  };
  const stale = (path: string): boolean => {
    const at = changedAt.get(path);
    if (at === undefined) return false;
    if (at < builder.liveBuildStartedAt()) {
      changedAt.delete(path);
      return false;
    }
    return true;
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
      stale,
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
  // The session sweep (jobs/session-sweep.ts) on a timer that never keeps the process alive by itself.
  const sweep = setInterval(() => {
    sweepSessions({ db }, Date.now()).catch((err: unknown) => log(`Session sweep failed: ${String(err)}`));
  }, SESSION_SWEEP_EVERY_MS).unref();
  // The refresh job (jobs/refresh.ts) every minute, unless REFRESH_ENABLED=false; its lease in the
  // database keeps this timer, `npm run refresh` and other replicas from overlapping.
  let refreshing: Promise<unknown> | null = null;
  const refresh = env.REFRESH_ENABLED
    ? setInterval(() => {
        refreshing ??= refreshInvites({ db, env, rebuild }, Date.now(), { log })
          .catch((err: unknown) => log(`Refresh failed: ${String(err)}`))
          .finally(() => {
            refreshing = null;
          });
      }, REFRESH_EVERY_MS).unref()
    : undefined;
  // The mail sender (jobs/mail-sender.ts) drains the outbox while a transport is configured; the
  // claim in the database keeps this timer, `npm run mail:send` and other replicas from sending one mail twice.
  let sending: Promise<unknown> | null = null;
  const sender = mail
    ? setInterval(() => {
        sending ??= sendMail({ db, env, mail }, Date.now(), { log })
          .catch((err: unknown) => log(`Mail sender failed: ${String(err)}`))
          .finally(() => {
            sending = null;
          });
      }, MAIL_SEND_EVERY_MS).unref()
    : undefined;
  // The weekly newsletter (jobs/newsletter.ts) on Mondays 09:00 UTC, as the Worker's Cron Trigger;
  // once per ISO week whoever runs it (`npm run newsletter:send` sends a missed week by hand).
  let weekly: NodeJS.Timeout | undefined;
  const armWeekly = () => {
    weekly = setTimeout(() => {
      sendNewsletter({ db, env }, Date.now(), { log })
        .catch((err: unknown) => log(`Newsletter failed: ${String(err)}`))
        .finally(armWeekly);
    }, nextWeeklySend(Date.now()) - Date.now()).unref();
  };
  armWeekly();
  return {
    port,
    builder,
    onDemand,
    db,
    close: async () => {
      clearInterval(sweep);
      clearInterval(refresh);
      clearInterval(sender);
      clearTimeout(weekly);
      await refreshing;
      await sending;
      mail?.close?.();
      await new Promise<void>((ok) => httpServer.close(() => ok()));
      client.close();
    },
  };
}

// `npm start`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  setProcessEnv({ ASTRO_TELEMETRY_DISABLED: '1' });
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
