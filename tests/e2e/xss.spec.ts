import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import type { Db } from '../../db/client';
import { CONTENT_DEFAULTS } from '../../db/content-defaults';
import { createContactMessage } from '../../db/queries/contact';
import { listAllContent } from '../../db/queries/content';
import { saveListingEdit } from '../../db/queries/listing-edits';
import { createOperator } from '../../db/queries/operators';
import { upsertOwner } from '../../db/queries/owners';
import { createReport } from '../../db/queries/reports';
import {
  createServer,
  getServerById,
  getServerBySlug,
  listAllActiveServers,
  type Server,
} from '../../db/queries/servers';
import { insertSubmission } from '../../db/queries/submissions';
import { LIMITS } from '../../src/lib/enums';
import { placeListing } from '../../src/lib/placement';
import { featureLines } from '../../src/lib/schemas/submission';
import { expect, test as shared } from './fixtures';
import { hydrated } from './hydration';
import { testWithOwnSite } from './own-site';
import { ALL_PAYLOADS_TEXT, isAttackerUrl, PAYLOADS, type Payload } from './xss-payloads';

/*
 * Security issue #12: every payload of the corpus goes into every user-controlled text that
 * reaches a page (submission fields, console-edited server fields, site content, report and
 * contact texts), the site is rebuilt with them, and every page type and console screen is
 * opened in Chromium: nothing runs, nothing is parsed as markup, the policy header is the same
 * as before, and each page shows the payload as text.
 */

const PASSWORD = 'a long operator password';
const unique = () => Math.random().toString(36).slice(2, 8);
const PAGE_SIZE = LIMITS.categoryPageSize;
/**
 * A valid icon for the submission (the form requires one). Its host never resolves in the tests'
 * browser (CHROMIUM_ARGS), so a page that shows it does not wait on it.
 */
const ICON_URL = 'https://icons.example.com/corpus-icon.png';

/** Where a payload that ran would have left a trace. */
interface Sinks {
  dialogs: string[];
  attacker: string[];
  /** CSP violations of the signed-out console (no stored text on the screen): none is expected. */
  consoleOwn?: string[];
}

/** Listens on a browser context for every sink: dialogs, attacker requests, CSP violations. */
async function watch(context: BrowserContext): Promise<Sinks> {
  const sinks: Sinks = { dialogs: [], attacker: [] };
  context.on('dialog', (d) => {
    sinks.dialogs.push(`${d.type()} "${d.message()}" on ${d.page()?.url()}`);
    void d.dismiss().catch(() => {});
  });
  // A request is seen here before it fails: the attacker's origin is a closed loopback port. No
  // route aborts it, as a route would turn the context's HTTP cache off for the whole test.
  context.on('request', (r) => {
    if (isAttackerUrl(r.url())) sinks.attacker.push(r.url());
  });
  // Before any script of the page: a violation means markup or script from a payload was parsed.
  await context.addInitScript(() => {
    const seen: string[] = [];
    Object.defineProperty(window, '__cspViolations', { value: seen });
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber}:${e.columnNumber}): ${e.sample}`,
      ),
    );
  });
  return sinks;
}

/**
 * The corpus' own site (a copy of the run's template, no build of its own before the corpus'
 * rebuilds): no other spec shares it, so the corpus stays on it when the file ends instead of being
 * taken out again by one more rebuild. Its server counts no public rate limit (RATE_LIMITS=false):
 * a test opens dozens of pages rendered on request within a minute, more than one visitor's share
 * of renders. Nothing of the corpus is about limits; with none to dodge, no test intercepts the
 * page's loads, so the browser keeps its HTTP cache (Playwright turns it off while a route is set).
 */
const corpusSite = testWithOwnSite('xss', undefined, undefined, async () => ({ RATE_LIMITS: 'false' }));

/**
 * The corpus' own test: every test's context is watched from its first navigation. It extends the
 * shared site's `test` (its site replaced by the corpus' own, so the worker's is never started) to
 * run among the shared site's specs: Playwright starts the files of one set of worker fixtures
 * together, in name order, and the corpus, the longest file, must not be the last to start.
 */
const test = shared.extend<{ sinks: Sinks }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
  site: async ({}, use) => use(corpusSite.ownSite()),
  // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature
  baseURL: async ({}, use) => use(corpusSite.ownBaseURL()),
  sinks: [async ({ context }, use) => use(await watch(context)), { auto: true }],
});

/**
 * Asserts that nothing of the corpus ran or became markup on the page: no dialog, no attacker
 * request, `window.__xss` unset, no element carrying a payload's `id=xss<n>`, no inline event
 * handler attribute, no javascript:/data:/vbscript: URL in a link or source, no CSP violation,
 * and the page is still on this site (no meta refresh, no base hijack).
 */
async function expectInert(page: Page, sinks: Sinks, baseURL: string): Promise<void> {
  const found = await page.evaluate(() => {
    const URL_ATTRS = new Set(['href', 'src', 'action', 'formaction', 'data', 'xlink:href', 'srcset', 'poster']);
    const handlers: string[] = [];
    const urls: string[] = [];
    for (const el of document.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (/^on/i.test(a.name)) handlers.push(`<${el.localName} ${a.name}="${a.value.slice(0, 60)}">`);
        if (URL_ATTRS.has(a.name) && /^\s*(javascript|data|vbscript):/i.test(a.value)) {
          urls.push(`<${el.localName} ${a.name}="${a.value.slice(0, 60)}">`);
        }
      }
    }
    return {
      xss: (window as { __xss?: unknown }).__xss,
      injected: [...document.querySelectorAll('[id^="xss" i]')].map((e) => e.outerHTML.slice(0, 100)),
      handlers,
      urls,
      violations: [...((window as { __cspViolations?: string[] }).__cspViolations ?? [])],
    };
  });
  const where = page.url();
  if (new URL(where).pathname === '/admin') {
    found.violations = found.violations.filter((v) => !sinks.consoleOwn?.includes(v));
  }
  expect(
    { ...found, dialogs: sinks.dialogs, attacker: sinks.attacker, origin: new URL(where).origin },
    `nothing of the corpus runs on ${where}`,
  ).toEqual({
    xss: undefined,
    injected: [],
    handlers: [],
    urls: [],
    violations: [],
    dialogs: [],
    attacker: [],
    origin: baseURL,
  });
}

/**
 * Opens a page, waits for its islands, and checks it is inert. `ready` runs before the islands
 * are walked: a page that scrolls by itself (the home search) must have done so first.
 */
async function visit(
  page: Page,
  sinks: Sinks,
  baseURL: string,
  path: string,
  status = 200,
  ready?: () => Promise<void>,
) {
  const res = await page.goto(path);
  expect(res?.status(), `status of ${path}`).toBe(status);
  // As served (a breakout shows here first), then with the islands running.
  await expectInert(page, sinks, baseURL);
  await ready?.();
  await hydrated(page);
  await expectInert(page, sinks, baseURL);
}

/** Text of every match, exactly as in the DOM (textContent: no whitespace folding). */
const texts = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.map((e) => e.textContent ?? ''));

/** The editable texts every page shows (footer) or the home page shows (hero, categories). */
async function expectFooterContent(page: Page) {
  expect(await texts(page, 'footer p.muted-light'), 'footer tagline').toEqual([ALL_PAYLOADS_TEXT]);
  const copyright = (await texts(page, 'footer p')).filter((t) => t.startsWith('©'));
  expect(copyright).toEqual([`© ${new Date().getFullYear()} ${ALL_PAYLOADS_TEXT}`]);
}

/** Every string value inside the page's JSON-LD blocks, parsed as a crawler would. */
async function jsonLdStrings(page: Page): Promise<string[]> {
  const blocks = await texts(page, 'script[type="application/ld+json"]');
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const b of blocks) walk(JSON.parse(b));
  return out;
}

/** The fields an error envelope names. */
const issuePaths = (body: string): string[] => [
  ...new Set(
    ((JSON.parse(body) as { error?: { issues?: { path: string }[] } }).error?.issues ?? []).map((i) => i.path),
  ),
];

/** A same-origin JSON POST (the corpus' site counts no rate limit, so every post is its own). */
async function postJson(baseURL: string, path: string, data: unknown) {
  const res = await fetch(new URL(path, baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseURL },
    body: JSON.stringify(data),
  });
  return { status: res.status, body: await res.text() };
}

/** The Content-Security-Policy header of each path. */
async function policies(baseURL: string, paths: string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const path of paths) out[path] = (await fetch(new URL(path, baseURL))).headers.get('content-security-policy');
  return out;
}

/** Waits for every requested rebuild to be live (or fails with the build's error). */
async function waitForLiveBuild(request: APIRequestContext, since: string) {
  let last = '';
  await expect
    .poll(
      async () => {
        const s = (await (await request.get('/api/admin/build')).json()) as {
          state: string;
          liveSince: string | null;
          lastError: string | null;
        };
        last = s.lastError ?? '';
        if (s.state === 'failed') return 'failed';
        return s.state === 'idle' && s.liveSince !== null && s.liveSince > since ? 'live' : s.state;
      },
      { timeout: 240_000, intervals: [500] },
    )
    .toMatch(/^(live|failed)$/);
  expect(last, 'the rebuild with the corpus succeeds').toBe('');
}

/** The longest run of payloads, one per line, that fits `max` characters. */
function joinedWithin(list: readonly Payload[], max: number): string {
  let out = '';
  for (const p of list) {
    const next = out ? `${out}\n${p.text}` : p.text;
    if (next.length > max) break;
    out = next;
  }
  return out;
}

/** The live build's folder: fixtures.ts keeps builds in .tmp/e2e-<the database's temp dir>. */
async function liveBuildDir(dbUrl: string): Promise<string> {
  const buildsDir = join(process.cwd(), '.tmp', `e2e-${basename(dirname(dbUrl.replace(/^file:/, '')))}`);
  return join(buildsDir, (await readFile(join(buildsDir, 'current'), 'utf8')).trim(), 'client');
}

/** What beforeAll stored, for the tests that open the pages and screens. */
interface Stored {
  /** One listing per payload, named by it, from the database (the bulk path). */
  servers: { p: Payload; server: Server }[];
  /** The listing edited through the console's Servers screen. */
  edited: {
    server: Server;
    subcategory: string;
    description: string;
    pros: string[];
    cons: string[];
    tags: string[];
    features: string[];
  };
  /** The listing of the submission posted to the API and approved in the console. */
  approved: { server: Server; description: string; features: string };
  /**
   * An owner's edit of a listing (#17) with every editable field holding payloads (links by
   * their labels), approved in the console with payload notes; the listing also stores payloads
   * as its language and region (codes the API refuses: stored before validation, never shown).
   */
  ownerEdit: {
    server: Server;
    description: string;
    tags: string[];
    features: string[];
    labels: string[];
  };
  /** An owner's edit left pending: the console's review shows its diff. */
  pendingEdit: { serverName: string; description: string; labels: string[]; owner: string };
  /** Moderator notes: on a pending submission (the review panel's field) and a rejected one (its mail). */
  notes: { pendingName: string; text: string; rejectedName: string };
  contactName: string;
  reportDetails: string;
  cookies: Awaited<ReturnType<BrowserContext['cookies']>>;
  policyBefore: Record<string, string | null>;
  policyPaths: string[];
}
let stored: Stored;

/** A fresh admin, signed in through the console's form. */
async function signIn(page: Page, db: Db) {
  const email = `xss-admin-${unique()}@example.com`;
  await createOperator(db, { email, password: PASSWORD, role: 'admin' });
  await page.goto('/admin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

/** Admin API write from the signed-in console's cookies, with its CSRF token and our Origin. */
async function adminWrite(
  request: APIRequestContext,
  baseURL: string,
  method: 'PUT' | 'POST',
  path: string,
  data: unknown,
) {
  const me = (await (await request.get('/api/admin/me')).json()) as { csrfToken: string };
  return request.fetch(`/api/admin${path}`, {
    method,
    data,
    headers: { 'x-csrf-token': me.csrfToken, origin: baseURL },
  });
}

test.describe
  .serial('XSS corpus of issue #12', () => {
    test.beforeAll(async ({ browser }) => {
      // One rebuild with every payload in it, waited for by its status, never by a sleep.
      test.setTimeout(360_000);
      const { db, baseURL } = corpusSite.ownSite();
      const tag = unique();
      const seeded = await getServerBySlug(db, 'apex-legends-hub');
      const policyPaths = ['/', `/server/${seeded?.slug ?? 'apex-legends-hub'}`, '/admin', '/help'];
      const policyBefore = await policies(baseURL, policyPaths);

      // 1. The bulk rows, straight into the database: one listing per payload, every text field
      //    holding it. Listings rank first (most members), six are premium (the home page's picks,
      //    the dashboard's table), every eighth is a Crypto/Bitcoin one (the subcategory page).
      //    Three keep icon and join URLs from before validation (javascript:, data:): stored, they
      //    must still never be fetched or followed.
      const legacyUrl: Record<number, string> = {
        12: 'javascript:alert(12)',
        14: PAYLOADS[13]!.text,
        15: PAYLOADS[14]!.text,
      };
      const servers: Stored['servers'] = [];
      for (const p of PAYLOADS) {
        const crypto = p.n % 8 === 0;
        const sub = crypto ? `Bitcoin ${p.text}` : p.text;
        const server = await createServer(db, {
          name: p.text,
          description: p.text,
          category: crypto ? 'Crypto' : 'Gaming',
          subcategory: sub.length <= 60 ? sub : crypto ? 'Bitcoin' : null,
          members: 900_000_000 - p.n * 1000,
          active_users: 1000 + p.n,
          image_url: legacyUrl[p.n] ?? null,
          affiliate_link: legacyUrl[p.n] ?? `https://discord.gg/xss${p.n}`,
          pros: [p.text],
          cons: [p.text],
          features: [p.text],
          tags: p.text.length <= 40 ? [p.text] : [],
          is_premium: p.n <= LIMITS.premiumGrid,
        });
        servers.push({ p, server });
      }
      const target = await createServer(db, {
        name: `Console target ${tag}`,
        description: 'Edited through the Servers screen.',
        category: 'Gaming',
        members: 899_000_000,
        active_users: 10,
      });
      const pending: Awaited<ReturnType<typeof insertSubmission>>[] = [];
      for (const input of PAYLOADS.map((p) => ({
        server_name: p.text,
        server_description: p.text,
        category: 'Gaming',
        invite_link: `https://discord.gg/xss${p.n}`,
        server_image: null,
        contact_email: `xss-${p.n}-${tag}@example.com`,
        features: p.text,
        member_count: 10,
        active_users: 1,
        submitter_name: p.text,
        is_owner: true,
      }))) {
        pending.push(await insertSubmission(db, input));
      }
      for (const { p, server } of servers) {
        await createReport(db, { server_id: server.id, reason: 'spam', details: p.text, session_id: null });
        await createContactMessage(db, {
          name: p.text,
          email: `xss-${p.n}-${tag}@example.com`,
          subject: 'general',
          message: p.text,
          priority: 'normal',
        });
      }
      // Owners' edits (#17), stored as the account page's handler stores them: a diff of the
      // editable fields. Link labels are payloads; the addresses must be https on a public host.
      const owner = await upsertOwner(db, {
        id: `9${Date.now()}`,
        username: PAYLOADS[4]!.text,
        global_name: PAYLOADS[0]!.text,
        avatar: null,
      });
      const labelPayloads = PAYLOADS.filter((p) => p.text.length <= 40).slice(0, 5);
      const linksOf = (list: readonly Payload[]) =>
        list.map((p) => ({ label: p.text, url: `https://links.example.com/p${p.n}` }));
      const ownerTarget = await createServer(db, {
        name: `Owner edit target ${tag}`,
        description: 'Edited by its owner.',
        category: 'Gaming',
        members: 897_000_000,
        active_users: 10,
        language: `Lang ${PAYLOADS[0]!.text}`,
        region: `Region ${PAYLOADS[4]!.text}`,
      });
      const ownerEdit: Stored['ownerEdit'] = {
        server: ownerTarget,
        description: joinedWithin(PAYLOADS.slice(14), 2000),
        tags: PAYLOADS.filter((p) => p.text.length <= 40)
          .slice(-12)
          .map((p) => p.text),
        features: PAYLOADS.slice(0, 20).map((p) => p.text),
        labels: labelPayloads.map((p) => p.text),
      };
      const approvedEdit = await saveListingEdit(db, ownerTarget.id, owner.id, {
        description: { from: ownerTarget.description, to: ownerEdit.description },
        tags: { from: [], to: ownerEdit.tags },
        features: { from: [], to: ownerEdit.features },
        links: { from: [], to: linksOf(labelPayloads) },
      });
      const pendingTarget = servers[1]!.server;
      const pendingLabels = PAYLOADS.filter((p) => p.text.length <= 40).slice(5, 10);
      const pendingEdit: Stored['pendingEdit'] = {
        serverName: pendingTarget.name,
        description: joinedWithin(PAYLOADS.slice(30), 2000),
        labels: pendingLabels.map((p) => p.text),
        owner: owner.username,
      };
      await saveListingEdit(db, pendingTarget.id, owner.id, {
        description: { from: pendingTarget.description, to: pendingEdit.description },
        subcategory: { from: pendingTarget.subcategory, to: PAYLOADS[39]!.text },
        links: { from: [], to: linksOf(pendingLabels) },
      });
      const rejectedName = `Rejected ${PAYLOADS[1]!.text}`;
      const rejected = await insertSubmission(db, {
        server_name: rejectedName,
        server_description: PAYLOADS[1]!.text,
        category: 'Gaming',
        invite_link: 'https://discord.gg/xssrejected',
        server_image: null,
        contact_email: `rejected-${tag}@example.com`,
        features: PAYLOADS[1]!.text,
        member_count: 10,
        active_users: 1,
        submitter_name: PAYLOADS[2]!.text,
        is_owner: true,
      });

      // 2. The public API, once per kind of input. URL fields
      //    refuse javascript: and data: (and a payload is never a valid email).
      const submittedName = `Submitted ${PAYLOADS[0]!.text}`;
      const submittedDescription = joinedWithin(PAYLOADS.slice(28), 2000);
      const submittedFeatures = joinedWithin(PAYLOADS.slice(0, 28), 2000);
      const submission = {
        server_name: submittedName,
        server_description: submittedDescription,
        category: 'Gaming',
        invite_link: 'https://discord.gg/xsscorpus',
        server_image: ICON_URL,
        contact_email: `owner-${tag}@example.com`,
        features: submittedFeatures,
        member_count: 898_000_000,
        active_users: 10,
        submitter_name: PAYLOADS[27]!.text,
        is_owner: true,
        terms: true,
      };
      for (const bad of [
        { invite_link: 'javascript:alert(12)' },
        { invite_link: PAYLOADS[13]!.text },
        { server_image: PAYLOADS[14]!.text },
        { server_image: 'javascript:alert(12)' },
        // Language and region are codes: a payload is neither.
        { language: PAYLOADS[0]!.text },
        { region: PAYLOADS[4]!.text },
      ]) {
        const res = await postJson(baseURL, '/api/submissions', { ...submission, ...bad });
        expect(
          { status: res.status, fields: issuePaths(res.body) },
          `POST /api/submissions refuses ${JSON.stringify(bad)}`,
        ).toEqual({ status: 400, fields: Object.keys(bad) });
      }
      const posted = await postJson(baseURL, '/api/submissions', submission);
      expect(posted.status, posted.body).toBe(201);

      const reportDetails = joinedWithin(PAYLOADS.slice(10), 1000);
      const reported = await postJson(baseURL, '/api/reports', {
        server_id: servers[0]!.server.id,
        reason: 'other',
        details: reportDetails,
      });
      expect(reported.status, reported.body).toBe(201);

      const contactName = PAYLOADS[8]!.text;
      const contacted = await postJson(baseURL, '/api/contact', {
        name: contactName,
        email: `writer-${tag}@example.com`,
        subject: 'general',
        message: ALL_PAYLOADS_TEXT,
        priority: 'normal',
      });
      expect(contacted.status, contacted.body).toBe(201);
      for (const p of [PAYLOADS[4]!, PAYLOADS[9]!, PAYLOADS[27]!]) {
        const res = await postJson(baseURL, '/api/newsletter', { email: `${p.text}@example.com` });
        expect(res.status, `POST /api/newsletter refuses payload ${p.n} as an email`).toBe(400);
      }

      // 3. The console: edit a listing on the Servers screen, the site content in the Content
      //    editor (and the API it calls), approve the posted submission. Each write asks for a rebuild.
      const context = await browser.newContext({ baseURL });
      const sinks = await watch(context);
      const page = await context.newPage();
      await signIn(page, db);
      const since = new Date().toISOString();

      const edited: Stored['edited'] = {
        server: target,
        subcategory: PAYLOADS[39]!.text,
        description: joinedWithin(PAYLOADS, 2000),
        pros: PAYLOADS.slice(0, 20).map((p) => p.text),
        cons: PAYLOADS.slice(20, 40).map((p) => p.text),
        features: PAYLOADS.slice(40).map((p) => p.text),
        tags: PAYLOADS.filter((p) => p.text.length <= 40)
          .slice(0, 12)
          .map((p) => p.text),
      };
      const editedName = `Edited ${PAYLOADS[27]!.text}`;
      await page.goto('/admin#servers');
      await page.getByLabel('Search servers').fill(target.name);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('button', { name: `Edit ${target.name}` }).click();
      const form = page.locator('form.server-form');
      await form.getByLabel('Name', { exact: true }).fill(editedName);
      await form.getByLabel('Subcategory').fill(edited.subcategory);
      await form.getByLabel('Description').fill(edited.description);
      await form.getByLabel('Pros (one per line)').fill(edited.pros.join('\n'));
      await form.getByLabel('Cons (one per line)').fill(edited.cons.join('\n'));
      await form.getByLabel('Tags (one per line)').fill(edited.tags.join('\n'));
      await form.getByLabel('Features (one per line)').fill(edited.features.join('\n'));
      // The icon and join URLs refuse javascript: and data: in the form...
      for (const bad of ['javascript:alert(12)', PAYLOADS[13]!.text]) {
        await form.getByLabel(/^Icon URL/).fill(bad);
        await form.getByLabel(/^Join link/).fill(bad);
        await form.getByRole('button', { name: 'Save changes' }).click();
        await expect(form.getByLabel(/^Icon URL/)).toHaveAttribute('aria-invalid', 'true');
        await expect(form.getByLabel(/^Join link/)).toHaveAttribute('aria-invalid', 'true');
        await expect(form.locator('.field-error')).toHaveCount(2);
      }
      await form.getByLabel(/^Icon URL/).fill('');
      await form.getByLabel(/^Join link/).fill('https://discord.gg/xssedited');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText(`Saved “${editedName}”.`)).toBeVisible();
      // ...and so does the API behind it.
      const editedRow = (await getServerById(db, target.id))!;
      for (const bad of [{ image_url: 'javascript:alert(12)' }, { affiliate_link: PAYLOADS[13]!.text }]) {
        const res = await adminWrite(context.request, baseURL, 'PUT', `/servers/${target.id}`, {
          ...editedRow,
          ...bad,
        });
        expect(
          { status: res.status(), fields: issuePaths(await res.text()) },
          `PUT /api/admin/servers refuses ${JSON.stringify(bad)}`,
        ).toEqual({ status: 400, fields: Object.keys(bad) });
      }
      edited.server = editedRow;
      expect(editedRow.name).toBe(editedName);
      expect(editedRow.pros).toEqual(edited.pros);

      // Approve the posted submission from the Submissions screen (the newest first: the queue's
      // own order is the oldest first, and other specs leave submissions waiting on this site).
      await page.goto('/admin#submissions');
      await page.getByLabel('Order').selectOption('newest');
      await page
        .locator('tbody tr')
        .filter({ has: page.locator('th', { hasText: submittedName }) })
        .getByRole('button', { name: /Review/ })
        .click();
      await page.getByRole('button', { name: 'Approve and publish' }).click();
      await expect(page.getByText(`Approved “${submittedName}”`)).toBeVisible();
      const approvedId = (JSON.parse(posted.body) as { submission: { id: number } }).submission.id;
      const approvedRow = pending.find((s) => s.id === approvedId);
      expect(approvedRow).toBeUndefined();
      const approvedServer = (await listAllActiveServers(db)).find((s) => s.name === submittedName);
      expect(approvedServer, 'the approved submission is a listing').toBeDefined();

      // Moderator notes: the approved owner edit's, a pending submission's (kept pending), and a
      // rejected submission's (quoted in the mail the rejection writes).
      const notesText = joinedWithin(PAYLOADS, 2000);
      const approvedEditRes = await adminWrite(context.request, baseURL, 'POST', `/edits/${approvedEdit.id}/approve`, {
        admin_notes: notesText,
      });
      expect(approvedEditRes.status(), await approvedEditRes.text()).toBe(200);
      const notedPending = pending.find((s) => s.server_name === PAYLOADS[39]!.text)!;
      for (const [id, status] of [
        [notedPending.id, 'pending'],
        [rejected.id, 'rejected'],
      ] as const) {
        const res = await context.request.fetch(`/api/admin/submissions/${id}`, {
          method: 'PATCH',
          // A rejection picks its reasons (#32); the note is what the payloads ride in.
          data: { status, admin_notes: notesText, ...(status === 'rejected' ? { reasons: ['scam_risk'] } : {}) },
          headers: {
            'x-csrf-token': ((await (await context.request.get('/api/admin/me')).json()) as { csrfToken: string })
              .csrfToken,
            origin: baseURL,
          },
        });
        expect(res.status(), await res.text()).toBe(200);
      }
      // Site content last: the footer tagline through the editor's form, the other texts through its
      // API. Every other write above touches listings (published in seconds); the content asks for a
      // full build. Its writes go in one burst (the API's together, then the form's save), so the
      // builder's quiet period merges them into one build instead of two.
      await page.goto('/admin#content');
      await page.getByRole('button', { name: 'Edit tagline' }).click();
      const contentForm = page.locator('form').filter({ has: page.getByLabel('Value') });
      await contentForm.getByLabel('Value').fill(ALL_PAYLOADS_TEXT);
      await contentForm.getByLabel('Active', { exact: true }).check();
      const contentRows = (await listAllContent(db)).filter((r) =>
        CONTENT_DEFAULTS.some((d) => d.page === r.page && d.section === r.section && d.content_key === r.content_key),
      );
      expect(contentRows).toHaveLength(CONTENT_DEFAULTS.length);
      const csrfToken = ((await (await context.request.get('/api/admin/me')).json()) as { csrfToken: string })
        .csrfToken;
      const contentWrites = await Promise.all(
        contentRows
          .filter((row) => row.content_key !== 'tagline')
          .map(({ id, ...rest }) =>
            context.request.fetch(`/api/admin/content/${id}`, {
              method: 'PUT',
              data: { ...rest, content_value: ALL_PAYLOADS_TEXT, is_active: true },
              headers: { 'x-csrf-token': csrfToken, origin: baseURL },
            }),
          ),
      );
      await page.getByRole('button', { name: 'Save content' }).click();
      for (const res of contentWrites) expect(res.status(), await res.text()).toBe(200);
      await expect(page.getByText('Content saved; the site is rebuilding.')).toBeVisible();

      ownerEdit.server = (await getServerById(db, ownerTarget.id))!;
      expect(ownerEdit.server.links.map((l) => l.label)).toEqual(ownerEdit.labels);

      await waitForLiveBuild(context.request, since);
      expect(sinks).toEqual({ dialogs: [], attacker: [] });

      stored = {
        servers,
        edited,
        approved: { server: approvedServer!, description: submittedDescription, features: submittedFeatures },
        ownerEdit,
        pendingEdit,
        notes: { pendingName: notedPending.server_name, text: notesText, rejectedName },
        contactName,
        reportDetails,
        cookies: await context.cookies(),
        policyBefore,
        policyPaths,
      };
      await context.close();
    });

    test('the Content-Security-Policy header is byte-identical after the rebuild and allows no inline code', async ({
      site,
    }) => {
      const after = await policies(site.baseURL, stored.policyPaths);
      expect(after).toEqual(stored.policyBefore);
      const policy = after['/']!;
      expect(policy).toMatch(/script-src 'self'/);
      // Every page (the console included) gets the one policy of the build.
      expect(new Set(Object.values(after))).toEqual(new Set([policy]));
      const dist = await liveBuildDir(site.dbUrl);
      const file = (await readFile(join(dist, 'csp-policy.txt'), 'utf8')).trim();
      expect(file).toBe(policy);
      expect(file).not.toContain("'unsafe-inline'");
      expect(file).not.toContain("'unsafe-eval'");
      expect(await readFile(join(dist, '_headers'), 'utf8')).toContain(`Content-Security-Policy: ${policy}\n`);
    });

    test('the home page shows the edited hero, category and footer texts and the payload listings as text', async ({
      page,
      sinks,
      site,
    }) => {
      await visit(page, sinks, site.baseURL, '/');
      expect(await texts(page, '.hero h1')).toEqual([ALL_PAYLOADS_TEXT]);
      expect(await texts(page, '.hero-sub')).toEqual([ALL_PAYLOADS_TEXT]);
      expect(await page.locator('#hero-search').getAttribute('placeholder')).toBe(ALL_PAYLOADS_TEXT);
      expect(await texts(page, '#categories-title')).toEqual([ALL_PAYLOADS_TEXT]);
      expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe(ALL_PAYLOADS_TEXT);
      await expectFooterContent(page);
      // Premium picks (an island's props) and the top list: the highest-ranked payload listings.
      // The home list as built: paid cards placed at most one in five (#19), then its first page.
      const top = placeListing(await listAllActiveServers(site.db)).slice(0, LIMITS.homeList);
      const cards = await texts(page, '#servers .card-name a');
      expect(cards).toEqual(top.map((s) => s.name));
      const premium = (await listAllActiveServers(site.db))
        .filter((s) => s.is_premium || s.is_sponsored)
        .sort((a, b) => b.sort_order - a.sort_order || b.members - a.members)
        .slice(0, LIMITS.premiumGrid);
      // The island shows them twice: a grid, and a carousel for narrow screens.
      expect(await texts(page, '.premium-grid .card-name a')).toEqual(premium.map((s) => s.name));
      expect(await texts(page, '.carousel .card-name a')).toEqual(premium.map((s) => s.name));
      // JSON-LD: the names parse back to the payloads (no breakout, no mangling).
      const ld = await jsonLdStrings(page);
      for (const s of (await listAllActiveServers(site.db)).slice(0, LIMITS.structuredData)) {
        expect(ld).toContain(s.name);
      }
    });

    const CHUNK = 14;
    for (let from = 0; from < PAYLOADS.length; from += CHUNK) {
      const chunk = PAYLOADS.slice(from, from + CHUNK);
      test(`server pages of payloads ${chunk[0]!.n}–${chunk.at(-1)!.n} show name, description, tags, features, pros and cons as text`, async ({
        page,
        sinks,
        site,
        request,
      }) => {
        for (const p of chunk) {
          const { server } = stored.servers.find((s) => s.p === p)!;
          await visit(page, sinks, site.baseURL, `/server/${server.slug}`);
          expect(await texts(page, 'h1'), `payload ${p.n} (${p.kind})`).toEqual([p.text]);
          expect(await texts(page, '#about-title')).toEqual([`About ${p.text}`]);
          expect(await texts(page, '.panel h3 + p')).toEqual([p.text]);
          expect(await texts(page, 'ul.tags li')).toEqual(server.tags);
          expect(await texts(page, '.list-check li')).toEqual([p.text, p.text, p.text]);
          expect(await texts(page, '.breadcrumb [aria-current="page"], nav [aria-current="page"]')).toContain(p.text);
          expect(await page.locator('[data-server-actions]').getAttribute('data-name')).toBe(p.text);
          expect(await texts(page, '#report-title')).toEqual([`Report ${p.text}`]);
          expect(await jsonLdStrings(page)).toContain(p.text);
          // The title folds ASCII whitespace only (U+2028 stays).
          expect(await page.title()).toContain(p.text.replace(/[\t\n\f\r ]+/g, ' '));
          if (server.subcategory) expect((await texts(page, '.detail-title p.muted'))[0]).toContain(server.subcategory);
          await expectFooterContent(page);
          // An icon or join URL stored before validation is never fetched (the page check above
          // finds no javascript:/data: source or link) nor followed by /go/.
          if (!server.affiliate_link?.startsWith('https:')) {
            const go = await request.get(`/go/${server.slug}`, { maxRedirects: 0 });
            expect(go.status(), `/go/${server.slug} with a stored ${server.affiliate_link}`).toBe(404);
            expect(go.headers().location).toBeUndefined();
          }
        }
      });
    }

    test('the console-edited and the approved listings show every payload field as text', async ({
      page,
      sinks,
      site,
    }) => {
      const { edited, approved } = stored;
      await visit(page, sinks, site.baseURL, `/server/${edited.server.slug}`);
      expect(await texts(page, 'h1')).toEqual([edited.server.name]);
      expect(await texts(page, '.panel h3 + p')).toEqual([edited.description]);
      expect(await texts(page, 'ul.tags li')).toEqual(edited.tags);
      const lists = await page
        .locator('.panel ul.list-check')
        .evaluateAll((uls) => uls.map((ul) => [...ul.querySelectorAll('li')].map((li) => li.textContent ?? '')));
      expect(lists).toEqual([edited.features, edited.pros, edited.cons]);
      expect((await texts(page, '.detail-title p.muted'))[0]).toContain(edited.subcategory);

      await visit(page, sinks, site.baseURL, `/server/${approved.server.slug}`);
      expect(await texts(page, 'h1')).toEqual([approved.server.name]);
      expect(await texts(page, '.panel h3 + p')).toEqual([approved.description]);
      expect(await texts(page, '.panel ul.list-check li')).toEqual(featureLines(approved.features));
    });

    test("an owner's approved edit shows its description, tags, features and link labels as text", async ({
      page,
      sinks,
      site,
    }) => {
      const { ownerEdit } = stored;
      await visit(page, sinks, site.baseURL, `/server/${ownerEdit.server.slug}`);
      expect(await texts(page, 'h1')).toEqual([ownerEdit.server.name]);
      expect(await texts(page, '.panel h3 + p')).toEqual([ownerEdit.description]);
      expect(await texts(page, 'ul.tags li')).toEqual(ownerEdit.tags);
      expect(await texts(page, '.panel ul.list-check li')).toEqual(ownerEdit.features);
      expect(await texts(page, '.server-links li a')).toEqual(ownerEdit.labels);
      const hrefs = await page.locator('.server-links li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(ownerEdit.server.links.map((l) => l.url));
      // The language and region stored as payloads are no known code: the page names neither.
      const body = (await page.locator('main').textContent()) ?? '';
      expect(body).not.toContain(ownerEdit.server.language!);
      expect(body).not.toContain(ownerEdit.server.region!);
    });

    test('listings (all servers, a category and its later pages, a subcategory) show every payload name as text', async ({
      page,
      sinks,
      site,
    }) => {
      const all = await listAllActiveServers(site.db);
      // Each listing as built: paid cards placed at most one in five (#19).
      const listings = [
        { base: '/servers', servers: placeListing(all) },
        {
          base: '/best-gaming-discord',
          servers: placeListing(
            all.filter((s) => s.category === 'Gaming'),
            true,
          ),
        },
      ];
      for (const { base: path, servers } of listings) {
        const pages = Math.ceil(servers.length / PAGE_SIZE);
        expect(pages, `${path} has later pages`).toBeGreaterThan(1);
        for (let n = 1; n <= pages; n++) {
          await visit(page, sinks, site.baseURL, n === 1 ? path : `${path}/page/${n}`);
          const slice = servers.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE);
          expect(await texts(page, '.card-name a'), `${path} page ${n}`).toEqual(slice.map((s) => s.name));
          await expectFooterContent(page);
        }
      }
      await visit(page, sinks, site.baseURL, '/best-crypto-discord/bitcoin-discord');
      const bitcoin = all.filter(
        (s) => s.category === 'Crypto' && (s.subcategory ?? '').toLowerCase().includes('bitcoin'),
      );
      const names = await texts(page, '.card-name a');
      expect(names).toEqual(
        placeListing(bitcoin, true)
          .slice(0, PAGE_SIZE)
          .map((s) => s.name),
      );
      for (const { p } of stored.servers.filter((s) => s.server.category === 'Crypto')) expect(names).toContain(p.text);
      expect(await jsonLdStrings(page)).toEqual(expect.arrayContaining(bitcoin.slice(0, 3).map((s) => s.name)));
    });

    test('the static pages, the not-found screens and the submit form’s carried errors show the site texts as text', async ({
      page,
      sinks,
      site,
    }) => {
      for (const path of ['/submit-server', '/help', '/contact', '/saved']) {
        await visit(page, sinks, site.baseURL, path);
        await expectFooterContent(page);
      }
      for (const path of [
        '/nope',
        '/best-nope-discord',
        `/best-gaming-discord/${encodeURIComponent(PAYLOADS[0]!.text)}`,
      ]) {
        await visit(page, sinks, site.baseURL, path, 404);
        await expectFooterContent(page);
      }
      // /submit-server?error=validation_failed&fields=a,b names the fields back: payloads as field names.
      const names = PAYLOADS.map((p) => p.text).filter((t) => !t.includes(','));
      await visit(
        page,
        sinks,
        site.baseURL,
        `/submit-server?error=validation_failed&fields=${encodeURIComponent(names.join(','))}`,
      );
      const summary = page.getByText(/^Please check/);
      await expect(summary).toHaveCount(1);
      const said = (await summary.textContent()) ?? '';
      for (const name of names) expect(said).toContain(name);
    });

    test('the server-not-found screen shows every payload slug as text, and the slug fallback only redirects to stored slugs', async ({
      page,
      sinks,
      site,
      request,
    }) => {
      // Every payload's screen is rendered on request (a 404 is never a file): minutes on a loaded machine.
      test.setTimeout(180_000);
      // A word no listing has keeps the slug fallback (name variants) from finding a payload listing.
      const missing = `Missing ${unique()}x`;
      for (const p of PAYLOADS) {
        const slug = `${missing} ${p.text}`;
        await visit(page, sinks, site.baseURL, `/server/${encodeURIComponent(slug)}`, 404);
        expect(await texts(page, 'main code'), `payload ${p.n} (${p.kind})`).toEqual([slug]);
        // The bare payload may be found by the fallback: then it is a 301 to a stored slug, never to the request's text.
        const res = await request.get(`/server/${encodeURIComponent(p.text)}`, { maxRedirects: 0 });
        expect([301, 404]).toContain(res.status());
        if (res.status() === 301) expect(res.headers().location).toMatch(/^\/server\/[a-z0-9-]+$/);
      }
    });

    test('the submission-received page shows every payload email as text', async ({ page, sinks, site }) => {
      test.setTimeout(180_000);
      for (const p of PAYLOADS) {
        await visit(page, sinks, site.baseURL, `/submit-server/received?email=${encodeURIComponent(p.text)}`);
        expect(await texts(page, '#received-email'), `payload ${p.n} (${p.kind})`).toEqual([p.text]);
      }
    });

    const HALF = Math.ceil(PAYLOADS.length / 2);
    for (const chunk of [PAYLOADS.slice(0, HALF), PAYLOADS.slice(HALF)]) {
      test(`the home search reads payloads ${chunk[0]!.n}–${chunk.at(-1)!.n} from the URL and shows them as text`, async ({
        page,
        sinks,
        site,
      }) => {
        // Each payload's search page is rendered on request (issue 28 item 4), not read from a file.
        test.setTimeout(180_000);
        for (const p of chunk) {
          // /?search= opens the search page (issue 28 item 4), which writes the term into its count line.
          const term = page.locator('.search-results .count strong');
          await visit(page, sinks, site.baseURL, `/?search=${encodeURIComponent(p.text)}`, 200, () =>
            expect(term).toHaveCount(1),
          );
          expect(await term.textContent(), `payload ${p.n} (${p.kind})`).toBe(p.text);
          await expect(page.getByRole('searchbox', { name: 'Search Discord servers' })).toHaveValue(p.text);
          await expectInert(page, sinks, site.baseURL);
        }
      });
    }

    test('a refused form post without JavaScript shows what was typed back as text', async ({ page, sinks, site }) => {
      // The browser posts the forms; the server's answer (a filled-in page, or a redirect to the
      // form) is what the browser renders.
      const forms: { action: string; fields: Record<string, string> }[] = [
        {
          action: '/api/submissions',
          fields: {
            server_name: PAYLOADS[0]!.text,
            category: 'Gaming',
            server_description: joinedWithin(PAYLOADS, 2000),
            // Refused: the page comes back with what was typed.
            invite_link: 'javascript:alert(12)',
            server_image: PAYLOADS[14]!.text,
            contact_email: PAYLOADS[4]!.text,
            features: joinedWithin(PAYLOADS.slice(20), 2000),
            member_count: PAYLOADS[9]!.text,
            active_users: PAYLOADS[10]!.text,
            submitter_name: PAYLOADS[27]!.text,
            terms: 'on',
          },
        },
        {
          action: '/api/contact',
          fields: {
            name: PAYLOADS[28]!.text,
            email: PAYLOADS[1]!.text,
            subject: 'general',
            priority: 'normal',
            message: ALL_PAYLOADS_TEXT,
          },
        },
        { action: '/api/newsletter', fields: { email: PAYLOADS[5]!.text } },
      ];
      for (const { action, fields } of forms) {
        await visit(page, sinks, site.baseURL, '/help');
        await page.evaluate(
          ({ action, fields }) => {
            const form = document.createElement('form');
            form.method = 'post';
            form.action = action;
            for (const [name, value] of Object.entries(fields)) {
              const field = document.createElement('textarea');
              field.name = name;
              field.value = value;
              form.append(field);
            }
            document.body.append(form);
            form.submit();
          },
          { action, fields },
        );
        await page.waitForURL((url) => url.pathname !== '/help');
        await page.waitForLoadState('load');
        await expectInert(page, sinks, site.baseURL);
        await hydrated(page);
        await expectInert(page, sinks, site.baseURL);
        // Whatever the form shows back is exactly what was typed (a text field may show nothing).
        const shown = await page.evaluate((action) => {
          const form = document.querySelector<HTMLFormElement>(`form[action="${action}"]`);
          const out: Record<string, string> = {};
          for (const el of form?.elements ?? []) {
            // Text the visitor typed: text-like inputs and text areas (not choices, not hidden fields).
            const { name, value, type } = el as HTMLInputElement;
            const typed = el.localName === 'textarea' || ['text', 'email', 'url', 'search', 'tel'].includes(type);
            if (name && typed && !(name in out)) out[name] = value;
          }
          return out;
        }, action);
        expect(Object.keys(shown).length, `${page.url()} shows the ${action} form again`).toBeGreaterThan(0);
        // Answered with the filled-in page (at the form's action), every typed field is back; after
        // a redirect to the form, a field may be empty.
        const filled = new URL(page.url()).pathname === action;
        test
          .info()
          .annotations.push({ type: 'answer', description: `${action}: ${filled ? 'filled-in page' : page.url()}` });
        for (const [name, value] of Object.entries(fields)) {
          if (name in shown && (filled || shown[name])) expect(shown[name], `${action} field ${name}`).toBe(value);
        }
      }
    });

    test('saved servers from localStorage show payload names as text and never load payload icons', async ({
      page,
      sinks,
      site,
    }) => {
      const saved = PAYLOADS.map((p) => ({
        id: 1_000_000 + p.n,
        name: p.text,
        category: p.text,
        image_url: ['javascript:alert(1)', p.text, `data:image/svg+xml,<svg onload=alert(${p.n})>`][p.n % 3],
        slug: p.text,
        savedAt: Date.now(),
      }));
      await page.goto('/saved');
      await page.evaluate((list) => localStorage.setItem('savedServers', JSON.stringify(list)), saved);
      await visit(page, sinks, site.baseURL, '/saved');
      expect(await texts(page, '.saved-item strong')).toEqual(saved.map((s) => s.name));
      const categories = await texts(page, '.saved-item p.muted');
      expect(categories.map((c, i) => c.startsWith(`${saved[i]?.category} · saved`))).toEqual(saved.map(() => true));
      expect(await page.locator('.saved-item img').count()).toBe(0);
      const hrefs = await page
        .locator('.saved-item a')
        .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      for (const href of hrefs) expect(new URL(href).origin).toBe(site.baseURL);
    });

    /** Signs the test's page in with the console session beforeAll opened (first noting the bundle's own CSP reports). */
    async function openConsole(page: Page, sinks: Sinks, baseURL: string, screen: string, heading: string) {
      if (!sinks.consoleOwn) {
        await page.goto('/admin');
        await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
        const own = await page.evaluate(() => [...((window as { __cspViolations?: string[] }).__cspViolations ?? [])]);
        // The console bundle makes no violation of its own (zod runs jitless: no eval probe).
        expect(own).toEqual([]);
        sinks.consoleOwn = own;
        await page.context().addCookies(stored.cookies);
        // Leave the document, so the console starts again with the session.
        await page.goto('about:blank');
      }
      await page.goto(`/admin#${screen}`);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      await expect(page.getByText('Loading…')).toHaveCount(0);
      await expectInert(page, sinks, baseURL);
    }

    /** Pages through a console list, collecting `selector` texts on each page. */
    /** The texts of each selector over every page of the screen's own list, once its first row is shown. */
    async function collectPagesOf(page: Page, selectors: string[]): Promise<string[][]> {
      const out: string[][] = selectors.map(() => []);
      await expect(page.locator(selectors[0]!).first()).toBeVisible();
      for (;;) {
        const shown = await Promise.all(selectors.map((s) => texts(page, s)));
        for (const [i, t] of shown.entries()) out[i]!.push(...t);
        // The screen's own list (the Submissions screen has the owner edits' pager too).
        const next = page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('button', { name: 'Next' });
        if (await next.isDisabled()) return out;
        await next.click();
        // The pager's label moves at once, the rows when the next page has loaded.
        await expect.poll(() => texts(page, selectors[0]!)).not.toEqual(shown[0]);
      }
    }

    const collectPages = async (page: Page, selector: string) => (await collectPagesOf(page, [selector]))[0]!;

    test('the console dashboard and submissions screens show payload submissions as text', async ({
      page,
      sinks,
      site,
    }) => {
      const names = PAYLOADS.map((p) => p.text);
      await openConsole(page, sinks, site.baseURL, 'dashboard', 'Dashboard');
      const pendingNames = await texts(page, '.plain-list strong');
      expect(pendingNames.length).toBeGreaterThan(0);
      for (const n of pendingNames.slice(0, 5)) expect(names).toContain(n);
      const premium = await texts(page, 'table tbody th[scope="row"]');
      for (const s of stored.servers.filter((x) => x.server.is_premium)) expect(premium).toContain(s.p.text);
      await expectInert(page, sinks, site.baseURL);

      await openConsole(page, sinks, site.baseURL, 'submissions', 'Submissions');
      const listed = await collectPages(page, 'tbody th[scope="row"]');
      expect(listed).toEqual(expect.arrayContaining(names));
      await expectInert(page, sinks, site.baseURL);
      // The review panel of one: name, description, features and submitter as text.
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Submissions', level: 1 })).toBeVisible();
      // The newest first, as the screen listed them before the queue's oldest-first order (#32).
      await page.getByLabel('Order').selectOption('newest');
      const p = PAYLOADS[39]!;
      const row = page.locator('tbody tr').filter({ has: page.locator('th', { hasText: p.text }) });
      await expect(row).toHaveCount(1);
      await row.getByRole('button', { name: /Review/ }).click();
      const detail = page.locator('article.detail');
      expect(await detail.locator('h2').evaluate((h) => h.firstChild?.textContent)).toBe(p.text);
      expect(await detail.locator('p.prewrap').evaluateAll((ps) => ps.map((x) => x.textContent))).toContain(p.text);
      expect(await detail.textContent()).toContain(`${p.text} <`);
      await expectInert(page, sinks, site.baseURL);
    });

    test('the console servers screen lists payload names and its edit form holds them as values', async ({
      page,
      sinks,
      site,
    }) => {
      await openConsole(page, sinks, site.baseURL, 'servers', 'Servers');
      const listed = await collectPages(page, 'tbody th[scope="row"] > a');
      expect(listed).toEqual(expect.arrayContaining([...PAYLOADS.map((p) => p.text), stored.edited.server.name]));
      await expectInert(page, sinks, site.baseURL);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible();
      const { edited } = stored;
      await page.getByRole('button', { name: `Edit ${edited.server.name}` }).click();
      const form = page.locator('form.server-form');
      expect(await form.locator('h2').textContent()).toBe(`Edit ${edited.server.name}`);
      await expect(form.getByLabel('Name', { exact: true })).toHaveValue(edited.server.name);
      await expect(form.getByLabel('Subcategory')).toHaveValue(edited.subcategory);
      await expect(form.getByLabel('Description')).toHaveValue(edited.description);
      await expect(form.getByLabel('Pros (one per line)')).toHaveValue(edited.pros.join('\n'));
      await expect(form.getByLabel('Cons (one per line)')).toHaveValue(edited.cons.join('\n'));
      await expect(form.getByLabel('Tags (one per line)')).toHaveValue(edited.tags.join('\n'));
      await expect(form.getByLabel('Features (one per line)')).toHaveValue(edited.features.join('\n'));
      await expectInert(page, sinks, site.baseURL);
      await form.getByRole('button', { name: 'Cancel' }).click();
      // The analytics panel titles a payload listing too.
      const newest = stored.servers.at(-1)!.p.text;
      await page.getByRole('button', { name: `Analytics of ${newest}`, exact: true }).click();
      expect(await page.locator('#analytics-title').textContent()).toBe(`Analytics: ${newest}`);
      await expectInert(page, sinks, site.baseURL);
    });

    test('the console reports, contact inbox, content, newsletter and audit screens show payloads as text', async ({
      page,
      sinks,
      site,
    }) => {
      const names = PAYLOADS.map((p) => p.text);
      // Every page of the reported listings (25 a page): their names, and their reports' texts.
      await openConsole(page, sinks, site.baseURL, 'reports', 'Reports');
      const [listings, reportTexts] = await collectPagesOf(page, ['article h2 a', '.report-list p.prewrap']);
      expect(listings).toEqual(expect.arrayContaining(names));
      expect(reportTexts).toEqual(expect.arrayContaining([...names, stored.reportDetails]));

      await openConsole(page, sinks, site.baseURL, 'contact', 'Contact inbox');
      const messages = await collectPages(page, 'article.message p.prewrap');
      expect(messages).toEqual(expect.arrayContaining([...names, ALL_PAYLOADS_TEXT]));
      await expectInert(page, sinks, site.baseURL);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Contact inbox', level: 1 })).toBeVisible();
      // Every page of the inbox: other specs on this worker's site write contact messages too.
      const senders = await collectPages(page, 'article.message p.muted');
      expect(senders.some((s) => s.startsWith(`${stored.contactName} <`))).toBe(true);

      await openConsole(page, sinks, site.baseURL, 'content', 'Content');
      const values = await texts(page, 'td.prewrap');
      expect(values.filter((v) => v === ALL_PAYLOADS_TEXT)).toHaveLength(CONTENT_DEFAULTS.length);
      await page.getByRole('button', { name: 'Edit tagline' }).click();
      await expect(page.getByLabel('Value')).toHaveValue(ALL_PAYLOADS_TEXT);
      await expectInert(page, sinks, site.baseURL);

      await openConsole(page, sinks, site.baseURL, 'newsletter', 'Newsletter');
      await expectInert(page, sinks, site.baseURL);
      await openConsole(page, sinks, site.baseURL, 'audit', 'Audit log');
      const details = (await texts(page, 'td.details')).join('\n');
      expect(details).toContain(JSON.stringify(stored.edited.server.slug));
    });

    test("the console shows owner edits, moderator notes and the Outbox's mail previews as text", async ({
      page,
      sinks,
      site,
    }) => {
      const { pendingEdit, notes, approved } = stored;
      await openConsole(page, sinks, site.baseURL, 'submissions', 'Submissions');
      await page.getByLabel('Order').selectOption('newest');
      // The pending submission's notes field holds the moderator's payload notes as its value.
      const row = page.locator('tbody tr').filter({ has: page.locator('th', { hasText: notes.pendingName }) });
      await row
        .first()
        .getByRole('button', { name: /Review/ })
        .click();
      await expect(page.getByLabel('Admin notes')).toHaveValue(notes.text);
      await expectInert(page, sinks, site.baseURL);

      // The owner edits queue: the pending edit's diff (description, subcategory, link labels) as text.
      const edits = page.locator('section.owner-edits');
      await edits.getByRole('button', { name: `Review edit ${pendingEdit.serverName}`, exact: true }).click();
      const diff = page.locator('article[aria-labelledby="edit-detail"]');
      await expect(diff.locator('tbody th')).toHaveText(['description', 'subcategory', 'links']);
      const asked = await texts(page, 'article[aria-labelledby="edit-detail"] tbody td ins');
      expect(asked[0]).toBe(pendingEdit.description);
      expect(asked[1]).toBe(PAYLOADS[39]!.text);
      for (const label of pendingEdit.labels) expect(asked[2]).toContain(`${label}: https://links.example.com/`);
      expect(await diff.textContent()).toContain(`By ${pendingEdit.owner} (verified owner)`);
      await expectInert(page, sinks, site.baseURL);

      // The Outbox: the received and approved mails of the approved submission, and the rejected
      // one's mail quoting the moderator's notes, each opened as sent (text part, sandboxed HTML).
      await openConsole(page, sinks, site.baseURL, 'outbox', 'Outbox');
      const mails: [kind: string, subject: string, body: string][] = [
        ['submission_received', `We received ${approved.server.name}`, approved.server.name],
        ['submission_approved', `${approved.server.name} is approved`, approved.server.name],
        ['submission_rejected', `${notes.rejectedName} was not approved`, notes.text],
      ];
      for (const [kind, subject, body] of mails) {
        await page.getByLabel('Kind').selectOption(kind);
        const mailRow = page.locator('tbody tr').filter({ has: page.locator('th', { hasText: subject }) });
        await expect(mailRow.first()).toBeVisible();
        expect(await mailRow.first().locator('th').textContent()).toBe(subject);
        await expectInert(page, sinks, site.baseURL);
        await mailRow.first().getByRole('button', { name: /^Open/ }).click();
        const view = page.locator('article.mail-view');
        await expect(view.locator('h2')).toHaveText(subject);
        // The text part quotes the notes line by line ("> "): every line is there as typed.
        const textPart = (await view.locator('pre.mail-text').textContent()) ?? '';
        for (const line of body.split('\n')) expect(textPart).toContain(line);
        // The HTML part shows the payloads as text: nothing in it is markup of theirs.
        const frame = page.frameLocator('iframe.mail-html');
        await expect(frame.locator('body')).toContainText(body.split('\n')[0]!);
        expect(await frame.locator('[id^="xss" i], [onerror], [onload], script').count()).toBe(0);
        expect(await view.locator('iframe').getAttribute('sandbox')).toBe('');
        await expectInert(page, sinks, site.baseURL);
        await view.getByRole('button', { name: 'Close' }).click();
      }
    });
  });
