import { afterEach, describe, expect, it } from 'vitest';
import { PAID_SPACING } from '../../src/lib/placement';
import { createAdminHarness } from '../helpers/admin';
import { createTestApp, postJson, seedServer, type TestApp, validSubmission } from './api-harness';

// Issue #19 through GET /api/servers: the language and region filters, and paid cards placed at
// most one in five positions on every page (organic order kept, a paid card never moved up).

let t: TestApp | undefined;
let h: Awaited<ReturnType<typeof createAdminHarness>> | undefined;
afterEach(() => {
  t?.cleanup();
  h?.cleanup();
  t = undefined;
  h = undefined;
});

interface Listed {
  name: string;
  members: number;
  language: string | null;
  region: string | null;
  is_premium: boolean;
  is_sponsored: boolean;
}

async function get(path: string) {
  const res = await t!.app.request(path);
  return { status: res.status, body: (await res.json()) as { servers: Listed[]; total: number } };
}

describe('GET /api/servers language and region', () => {
  it('keeps only the servers in the language asked for, in any case', async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    await seedServer(t.db, { name: 'Berlin Raiders', language: 'de', region: 'DE', members: 3000 });
    await seedServer(t.db, { name: 'Wiener Gilde', language: 'de', region: 'AT', members: 2000 });
    await seedServer(t.db, { name: 'London Lads', language: 'en', region: 'GB', members: 5000 });
    await seedServer(t.db, { name: 'Nowhere In Particular', members: 4000 });

    const german = await get('/api/servers?language=de');
    expect(german.status).toBe(200);
    expect(german.body.servers.map((s) => s.name)).toEqual(['Berlin Raiders', 'Wiener Gilde']);
    expect(german.body.total).toBe(2);
    expect((await get('/api/servers?language=DE')).body.servers.map((s) => s.name)).toEqual([
      'Berlin Raiders',
      'Wiener Gilde',
    ]);
    const austria = await get('/api/servers?language=de&region=at');
    expect(austria.body.servers.map((s) => [s.name, s.language, s.region])).toEqual([['Wiener Gilde', 'de', 'AT']]);
    expect((await get('/api/servers?region=GB')).body.servers.map((s) => s.name)).toEqual(['London Lads']);
    // Empty means every language, as a GET form's empty field sends it.
    expect((await get('/api/servers?language=&region=')).body.total).toBe(4);
  });

  it('refuses a language or region that is not a known code', async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    const language = await t.app.request('/api/servers?language=klingon');
    expect(language.status).toBe(400);
    expect(((await language.json()) as { error: { issues: { path: string }[] } }).error.issues[0]?.path).toBe(
      'language',
    );
    expect((await t.app.request('/api/servers?region=XX')).status).toBe(400);
  });
});

describe('GET /api/servers paid placement', () => {
  /** Six paid servers with the most members, then twelve others. */
  async function seedMix() {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    for (let i = 0; i < 6; i++) {
      await seedServer(t.db, {
        name: `Paid ${i}`,
        members: 100_000 - i,
        is_sponsored: i % 2 === 0,
        is_premium: i % 2 === 1,
      });
    }
    for (let i = 0; i < 12; i++) await seedServer(t.db, { name: `Organic ${i}`, members: 50_000 - i });
  }
  const paid = (s: Listed) => s.is_premium || s.is_sponsored;

  it('never puts two paid cards within five positions, across pages, and keeps the organic order', async () => {
    await seedMix();
    const shown: Listed[] = [];
    for (let page = 1; page <= 4; page++) {
      const { body } = await get(`/api/servers?per_page=5&page=${page}`);
      shown.push(...body.servers);
    }
    // Six paid among twelve organic: the last two have no one left to space them and end the list.
    expect(shown).toHaveLength(18);
    const flags = shown.map(paid).slice(0, -2);
    for (let i = 0; i < flags.length; i++) {
      expect(flags.slice(i, i + PAID_SPACING).filter(Boolean).length).toBeLessThanOrEqual(1);
    }
    // The first paid server keeps its place at the top; the others follow four organic cards apart.
    expect(shown.map((s) => s.name).slice(0, 11)).toEqual([
      'Paid 0',
      'Organic 0',
      'Organic 1',
      'Organic 2',
      'Organic 3',
      'Paid 1',
      'Organic 4',
      'Organic 5',
      'Organic 6',
      'Organic 7',
      'Paid 2',
    ]);
    expect(shown.filter((s) => !paid(s)).map((s) => s.name)).toEqual(
      Array.from({ length: 12 }, (_, i) => `Organic ${i}`),
    );
    // Twelve organic cards space three more paid ones after the first; the last two have no one
    // left to space them: they end the list, and every count counts them.
    expect(shown.filter(paid).map((s) => s.name)).toEqual(Array.from({ length: 6 }, (_, i) => `Paid ${i}`));
    expect(shown.slice(-2).map((s) => s.name)).toEqual(['Paid 4', 'Paid 5']);
    expect((await get('/api/servers?per_page=5&page=4')).body.total).toBe(18);
  });

  it('keeps a Premium Only list in its own order: every card is paid by the visitor’s choice', async () => {
    await seedMix();
    const { body } = await get('/api/servers?premium=true&per_page=10');
    expect(body.servers.map((s) => s.name)).toEqual(Array.from({ length: 6 }, (_, i) => `Paid ${i}`));
    expect(body.total).toBe(6);
  });
});

describe('language and region from submission to listing', () => {
  it('stores the owner’s language and region, lets the reviewer change them at approval, and lists by them', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const sent = await postJson(h.app, '/api/submissions', validSubmission({ language: 'PT', region: 'br' }));
    expect(sent.status).toBe(201);
    const { submission } = (await sent.json()) as { submission: { id: number; language: string; region: string } };
    expect(submission).toMatchObject({ language: 'pt', region: 'BR' });
    const admin = await h.signIn('admin');
    // The reviewer keeps the language and clears the region.
    const approved = await h.call(admin, 'POST', `/api/admin/submissions/${submission.id}/approve`, { region: '' });
    expect(approved.status).toBe(200);
    const { server } = (await approved.json()) as { server: { language: string | null; region: string | null } };
    expect(server).toMatchObject({ language: 'pt', region: null });
    const listed = (await (await h.app.request('/api/servers?language=pt')).json()) as { total: number };
    expect(listed.total).toBe(1);
  });

  it('refuses a submission in a language the list does not know, naming the field', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const res = await postJson(h.app, '/api/submissions', validSubmission({ language: 'xx' }));
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { issues: { path: string; message: string }[] } };
    expect(error.issues.map((i) => i.path)).toEqual(['language']);
    expect(error.issues[0]!.message).toMatch(/Primary language|language/);
  });

  it('lets an operator set a listing’s language, region and paid period on the servers screen', async () => {
    h = await createAdminHarness({ env: { RATE_LIMITS: 'false' } });
    const admin = await h.signIn('admin');
    const server = await seedServer(h.db, { name: 'Edited Later' });
    const res = await h.call(admin, 'PUT', `/api/admin/servers/${server.id}`, {
      name: server.name,
      description: server.description,
      category: server.category,
      members: server.members,
      active_users: server.active_users,
      affiliate_link: server.affiliate_link,
      language: 'ja',
      region: 'JP',
      placement_started_at: '2026-03-01',
      placement_ends_at: '',
    });
    expect(res.status).toBe(200);
    const { server: saved } = (await res.json()) as { server: Record<string, unknown> };
    expect(saved).toMatchObject({ placement_started_at: '2026-03-01T00:00:00.000Z', placement_ends_at: null });
    const listed = (await (await h.app.request('/api/servers?language=ja&region=JP')).json()) as {
      servers: { name: string }[];
    };
    expect(listed.servers.map((s) => s.name)).toEqual(['Edited Later']);
  });
});
