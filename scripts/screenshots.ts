// `tsx scripts/screenshots.ts`: starts the site as `npm start` does (temp seeded database, own
// build folder) and saves Playwright screenshots of the main screens into docs/screenshots/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { chromium } from '@playwright/test';
import { loadEnv } from '../functions/_app/env';
import { startNodeServer } from '../functions/_app/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/helpers/chromium';

interface Shot {
  file: string;
  path: string;
  width: number;
  height: number;
  fullPage: boolean;
  /** Only this element, after the <details> `open` names is opened (the home filters' fold). */
  element?: string;
  open?: string;
}

const SHOTS: Shot[] = [
  { file: 'home-desktop.png', path: '/', width: 1280, height: 800, fullPage: true },
  { file: 'home-mobile.png', path: '/', width: 390, height: 844, fullPage: true },
  { file: 'category.png', path: '/best-gaming-discord', width: 1280, height: 800, fullPage: true },
  { file: 'server.png', path: '/server/apex-legends-hub', width: 1280, height: 800, fullPage: true },
  // A phone: the join box (counts, freshness line, Join) right after the header.
  { file: 'server-390.png', path: '/server/apex-legends-hub', width: 390, height: 844, fullPage: true },
  // The home filters folded into one control on a phone, then opened.
  { file: 'home-filters-390.png', path: '/', width: 390, height: 844, fullPage: false, element: '#servers' },
  {
    file: 'home-filters-390-open.png',
    path: '/',
    width: 390,
    height: 844,
    fullPage: false,
    element: '#servers',
    open: '.filters-fold',
  },
  { file: 'submit.png', path: '/submit-server', width: 1280, height: 800, fullPage: true },
];

/** Every page type at 360 px, the narrowest common phone (docs/screenshots/phone-360/). */
const PHONE_PAGES: [name: string, path: string][] = [
  ['home', '/'],
  ['servers', '/servers'],
  ['category', '/best-gaming-discord'],
  ['subcategory', '/best-crypto-discord/bitcoin-discord'],
  ['server', '/server/apex-legends-hub'],
  ['submit', '/submit-server'],
  ['submit-received', '/submit-server/received?email=owner%40example.com'],
  ['message-sent', '/contact/sent'],
  ['newsletter-subscribed', '/newsletter/subscribed'],
  ['help', '/help'],
  ['contact', '/contact'],
  ['saved', '/saved'],
  ['offline', '/offline'],
  ['not-found', '/no-such-page'],
  ['category-not-found', '/best-nothing-discord'],
  ['subcategory-not-found', '/best-crypto-discord/nothing-discord'],
  ['server-not-found', '/server/no-such-server'],
  ['admin-sign-in', '/admin'],
];
for (const [name, path] of PHONE_PAGES) {
  SHOTS.push({ file: `phone-360/${name}.png`, path, width: 360, height: 740, fullPage: true });
}

const dir = mkdtempSync(join(tmpdir(), 'guildrank-shots-'));
const out = join(process.cwd(), 'docs', 'screenshots');
mkdirSync(join(out, 'phone-360'), { recursive: true });
const env = loadEnv({
  DATABASE_URL: `file:${join(dir, 'site.db')}`,
  PORT: '0',
  HOST: '127.0.0.1',
  REFRESH_ENABLED: 'false',
});
// The build folder inside the project, as the e2e fixtures do: Astro resolves the project's
// packages from beside the output folder.
const buildsDir = join(process.cwd(), '.tmp', `shots-${basename(dir)}`);
const server = await startNodeServer({ env, buildsDir, log: () => {} });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const shot of SHOTS) {
    const page = await browser.newPage({ viewport: { width: shot.width, height: shot.height } });
    await page.goto(`http://127.0.0.1:${server.port}${shot.path}`, { waitUntil: 'networkidle' });
    // Let client:visible islands hydrate before the capture.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 500) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 40));
      }
      window.scrollTo(0, 0);
    });
    await page.waitForLoadState('networkidle');
    // Opened as a click would (the <details> element's own state), without waiting on the page to settle.
    if (shot.open) await page.locator(shot.open).evaluate((el) => el.setAttribute('open', ''));
    if (shot.element) {
      // The element's top part: the filters and the first results.
      const box = (await page.locator(shot.element).boundingBox())!;
      await page.screenshot({
        path: join(out, shot.file),
        fullPage: true,
        clip: { x: 0, y: box.y, width: shot.width, height: Math.min(box.height, 1100) },
      });
    } else await page.screenshot({ path: join(out, shot.file), fullPage: shot.fullPage });
    await page.close();
    console.log(`docs/screenshots/${shot.file}`);
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(buildsDir, { recursive: true, force: true });
}
