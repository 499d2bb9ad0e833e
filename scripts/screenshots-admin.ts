// `tsx scripts/screenshots-admin.ts`: starts the product on a throwaway database with a week
// of demo traffic, signs in to the console in Chromium and writes
// docs/screenshots/admin-dashboard.png and docs/screenshots/admin-submissions.png.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { subscribeEmail } from '../db/queries/newsletter';
import { createOperator } from '../db/queries/operators';
import { createReport } from '../db/queries/reports';
import { listFeaturedServers } from '../db/queries/servers';
import { insertSubmission } from '../db/queries/submissions';
import { userInteractions } from '../db/schema';
import { loadEnv, setProcessEnv } from '../functions/_app/env';
import { startNodeServer } from '../functions/_app/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/helpers/chromium';

const root = resolve('.');
const out = join(root, 'docs', 'screenshots');
const dir = mkdtempSync(join(tmpdir(), 'guildrank-shots-'));
setProcessEnv({ ASTRO_TELEMETRY_DISABLED: '1' });
const env = loadEnv({
  DATABASE_URL: `file:${join(dir, 'site.db')}`,
  PORT: '0',
  HOST: '127.0.0.1',
  REFRESH_ENABLED: 'false',
});
const server = await startNodeServer({ env, root, buildsDir: join(dir, 'builds'), log: () => {} });
try {
  const { db } = server;
  await createOperator(db, { email: 'ops@guildrank.example', password: 'screenshot password', role: 'admin' });

  // A week of traffic on the premium servers, more each day.
  const premium = await listFeaturedServers(db);
  const events: (typeof userInteractions.$inferInsert)[] = [];
  for (let day = 6; day >= 0; day--) {
    const at = (h: number) => new Date(Date.now() - day * 86_400_000 - h * 60_000).toISOString();
    premium.forEach((s, i) => {
      const views = 40 + (6 - day) * 12 + i * 9;
      for (let v = 0; v < views; v++)
        events.push({ interaction_type: 'view', target_type: 'server', server_id: s.id, created_at: at(v) });
      for (let c = 0; c < Math.round(views / (4 + i)); c++) {
        events.push({
          interaction_type: 'click',
          target_type: 'server',
          server_id: s.id,
          conversion_value: 5,
          created_at: at(c),
        });
      }
      for (let c = 0; c < 2 + ((day + i) % 3); c++) {
        events.push({
          interaction_type: 'conversion',
          target_type: 'premium_cta',
          server_id: s.id,
          conversion_value: 10,
          created_at: at(c),
        });
      }
    });
    for (let n = 0; n < 3 + (6 - day); n++) {
      events.push({ interaction_type: 'signup', target_type: 'newsletter', conversion_value: 2, created_at: at(n) });
    }
  }
  for (let i = 0; i < events.length; i += 500) await db.insert(userInteractions).values(events.slice(i, i + 500));

  const names = [
    'Chess Masters Club',
    'Valorant Scrims EU',
    'Options Flow Desk',
    'DeFi Builders Guild',
    'Premier League Tips',
    'Value Investing Circle',
  ];
  const categories = ['Gaming', 'Gaming', 'Trading', 'Crypto', 'Sports Betting', 'Investing'];
  for (const [i, name] of names.entries()) {
    await insertSubmission(db, {
      server_name: name,
      server_description: `${name}: an active, moderated community with daily discussion and events.`,
      category: categories[i]!,
      invite_link: `https://discord.gg/demo${i}`,
      server_image: 'https://cdn.example.com/icon.png',
      contact_email: `owner${i}@example.com`,
      features: 'Daily events\nFriendly moderators',
      member_count: 800 + i * 1700,
      active_users: 120 + i * 90,
      submitter_name: 'Demo owner',
      is_owner: true,
    });
  }
  for (let i = 0; i < 24; i++) await subscribeEmail(db, `reader${i}@example.com`);
  if (premium[0])
    await createReport(db, { server_id: premium[0].id, reason: 'broken_link', details: 'Invite expired' });

  mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const page = await browser.newPage({
    viewport: { width: 1280, height: 900 },
    baseURL: `http://127.0.0.1:${server.port}`,
  });
  // No network here: answer the demo icon URL with a small generated image.
  await page.route('https://cdn.example.com/**', (route) =>
    route.fulfill({
      contentType: 'image/svg+xml',
      body: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="12" fill="#6366f1"/><text x="24" y="31" font-size="20" text-anchor="middle" fill="#fff" font-family="sans-serif">CM</text></svg>',
    }),
  );
  await page.goto('/admin');
  await page.getByLabel('Email').fill('ops@guildrank.example');
  await page.getByLabel('Password').fill('screenshot password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Premium server performance' }).waitFor();
  await page.locator('.chart-canvas canvas').first().waitFor();
  await page.screenshot({ path: join(out, 'admin-dashboard.png'), fullPage: true });

  await page.goto('/admin#submissions');
  await page
    .getByRole('row', { name: /Chess Masters Club/ })
    .getByRole('button', { name: /Review/ })
    .click();
  await page.getByRole('heading', { name: /Chess Masters Club/ }).waitFor();
  await page.screenshot({ path: join(out, 'admin-submissions.png'), fullPage: true });
  await browser.close();
  console.log(`Wrote ${join('docs', 'screenshots', 'admin-dashboard.png')} and admin-submissions.png`);
} finally {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
