import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../db/client';
import { migrateDb } from '../../db/migrate';
import { seedIfEmpty } from '../../db/seed';
import { createOnDemandPages } from '../../functions/_app/on-demand';
import { DEFAULT_SPONSORED_SLOTS } from '../../src/lib/pricing/plans';
import { DEFAULT_MIN_MEMBERS } from '../../src/lib/requirements';

// A page rendered on request states what the prerendered page states for the same data: the
// layout's facts carry this server's settings (payments open, the sponsored cap, the member
// minimum), as the build's facts do (src/data/site-data.ts getSiteData). The entry below is a
// stand-in for a build's server entry that prints what a page is given (the real build's pages
// go through tests/api/on-demand-pages.test.ts).

const SETTINGS = { payments: true, sponsoredSlots: DEFAULT_SPONSORED_SLOTS + 3, minMembers: DEFAULT_MIN_MEMBERS + 77 };

let dir: string;
let db: Db;
let close: () => void;

/** An entry whose one page prints the settings and the layout's facts it was given, as JSON in a page. */
const PRINTING_ENTRY = `
const page = (value) => new Response('<!doctype html><html><head></head><body>' + JSON.stringify(value) + '</body></html>', {
  headers: { 'content-type': 'text/html; charset=utf-8' },
});
export async function renderOnDemand(request, onDemand) {
  if (new URL(request.url).pathname !== '/server/printed') return undefined;
  const { facts } = await onDemand.basics;
  const { payments, sponsoredSlots, minMembers, supportEmail } = onDemand;
  return page({ given: { payments, sponsoredSlots, minMembers, supportEmail }, facts: {
    payments: facts.payments, sponsoredSlots: facts.sponsoredSlots, minMembers: facts.minMembers, supportEmail: facts.supportEmail,
  } });
}
export const renderPublished = renderOnDemand;
`;

const printed = (body: Buffer) => JSON.parse(/<body>(.*)<\/body>/.exec(body.toString('utf8'))![1]!);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'guildrank-on-demand-settings-'));
  writeFileSync(join(dir, 'entry.mjs'), PRINTING_ENTRY);
  const opened = await openDb({ url: `file:${join(dir, 'site.db')}` });
  await migrateDb(opened.db);
  await seedIfEmpty(opened.db);
  db = opened.db;
  close = () => opened.client.close();
});

afterAll(() => {
  close?.();
  rmSync(dir, { recursive: true, force: true });
});

describe("pages rendered on request carry this server's settings", () => {
  const expected = { ...SETTINGS, supportEmail: 'help@example.com' };

  it('the layout reads its facts with the settings, as the build does, and so does the publish', async () => {
    const pages = createOnDemandPages({
      entry: () => join(dir, 'entry.mjs'),
      db,
      supportEmail: 'help@example.com',
      ...SETTINGS,
    });
    const page = await pages.render(new Request('http://localhost/server/printed'));
    expect(printed(page!.body)).toEqual({ given: expected, facts: expected });
    // The publish renders with the same settings.
    const published = await pages.publishRenderer(join(dir, 'entry.mjs'))('/server/printed', 'page');
    expect(JSON.parse(/<body>(.*)<\/body>/.exec(published!)![1]!)).toEqual({ given: expected, facts: expected });
  });
});
