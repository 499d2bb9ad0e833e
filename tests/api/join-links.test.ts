// Issue #13 item 6: a listing without a join link shows no Join button, premium and sponsored
// placement need a link, and only listed servers are ever joined through /go/.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from '../../db/queries/servers';
import { SAMPLE_SERVERS } from '../../db/sample-data';
import { seedIfEmpty } from '../../db/seed';
import { createAdminHarness } from '../helpers/admin';

type Harness = Awaited<ReturnType<typeof createAdminHarness>>;
let h: Harness | undefined;
afterEach(() => h?.cleanup());

interface ErrorBody {
  error: { code: string; issues?: { path: string; message: string }[] };
}

const listing = (overrides: Record<string, unknown> = {}) => ({
  name: 'Link Less Guild',
  description: 'A community that has not shared an invite yet.',
  category: 'Gaming',
  members: 100,
  active_users: 10,
  affiliate_link: null,
  ...overrides,
});

const issuePaths = async (res: Response) => ((await res.json()) as ErrorBody).error.issues?.map((i) => i.path);

describe('premium and sponsored placement without a join link', () => {
  it('POST and PUT /api/admin/servers refuse premium or sponsored without a link, naming affiliate_link', async () => {
    h = await createAdminHarness();
    const admin = await h.signIn('admin');
    for (const flag of ['is_premium', 'is_sponsored']) {
      const res = await h.call(admin, 'POST', '/api/admin/servers', listing({ [flag]: true }));
      expect(res.status, flag).toBe(400);
      expect(await issuePaths(res), flag).toEqual(['affiliate_link']);
    }
    const created = await h.call(admin, 'POST', '/api/admin/servers', listing());
    expect(created.status).toBe(201);
    const { server } = (await created.json()) as { server: { id: number } };
    const put = await h.call(admin, 'PUT', `/api/admin/servers/${server.id}`, listing({ is_sponsored: true }));
    expect(put.status).toBe(400);
    expect(await issuePaths(put)).toEqual(['affiliate_link']);
    const withLink = listing({ is_premium: true, affiliate_link: 'https://discord.gg/linked' });
    expect((await h.call(admin, 'PUT', `/api/admin/servers/${server.id}`, withLink)).status).toBe(200);
  });

  it('PATCH /api/admin/servers/:id/placement refuses premium or sponsored for a server without a link', async () => {
    h = await createAdminHarness();
    const admin = await h.signIn('admin');
    const bare = await createServer(h.db, listing());
    for (const flag of ['is_premium', 'is_sponsored']) {
      const res = await h.call(admin, 'PATCH', `/api/admin/servers/${bare.id}/placement`, { [flag]: true });
      expect(res.status, flag).toBe(400);
      expect(await issuePaths(res), flag).toEqual([flag]);
    }
    // Turning placement off, or the sort order, needs no link.
    const off = await h.call(admin, 'PATCH', `/api/admin/servers/${bare.id}/placement`, {
      is_premium: false,
      sort_order: 3,
    });
    expect(off.status).toBe(200);
    const linked = await createServer(h.db, listing({ name: 'Linked Guild', affiliate_link: 'https://discord.gg/ok' }));
    const on = await h.call(admin, 'PATCH', `/api/admin/servers/${linked.id}/placement`, { is_premium: true });
    expect(on.status).toBe(200);
    const rows = await h.client.execute('SELECT name, is_premium, is_sponsored FROM discord_servers ORDER BY id');
    expect(rows.rows.map((r) => [r.name, r.is_premium, r.is_sponsored])).toEqual([
      ['Link Less Guild', 0, 0],
      ['Linked Guild', 1, 0],
    ]);
  });
});

describe('GET /go/:slug of an unlisted server', () => {
  it('answers 404 for the Education sample, which no page lists, and records nothing', async () => {
    h = await createAdminHarness();
    await seedIfEmpty(h.db);
    const education = SAMPLE_SERVERS.find((s) => s.category === 'Education')!;
    const res = await h.app.request(`/go/${education.slug}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('location')).toBeNull();
    const listed = SAMPLE_SERVERS.find((s) => s.category === 'Gaming')!;
    expect((await h.app.request(`/go/${listed.slug}`)).status).toBe(302);
    const clicks = await h.client.execute('SELECT server_id FROM user_interactions');
    expect(clicks.rows).toHaveLength(1);
  });
});
