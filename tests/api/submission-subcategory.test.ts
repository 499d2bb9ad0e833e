// Issue #13 item 8: a new listing reaches its subcategory page. The owner may pick a subcategory of
// the chosen category (JSON or the no-JavaScript form), the reviewer may change it, and approval
// stores it on the listing.
import { afterEach, describe, expect, it } from 'vitest';
import { listServers } from '../../db/queries/servers';
import { insertSubmission } from '../../db/queries/submissions';
import { createAdminHarness } from '../helpers/admin';
import { postForm, postJson, validSubmission } from './api-harness';

type Harness = Awaited<ReturnType<typeof createAdminHarness>>;
let h: Harness | undefined;
afterEach(() => h?.cleanup());

const harness = () => createAdminHarness({ env: { RATE_LIMITS: 'false' } });

/** A valid submission as the no-JavaScript form posts it: every value a string. */
const formOf = (overrides: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(validSubmission(overrides)).map(([k, v]) => [k, String(v)]));

const storedSubcategories = async (harness: Harness) =>
  (await harness.client.execute('SELECT server_name, subcategory FROM server_submissions ORDER BY id')).rows.map(
    (r) => [r.server_name, r.subcategory],
  );

describe('POST /api/submissions with a subcategory', () => {
  it('stores a subcategory of the chosen category, from JSON and from the plain form', async () => {
    h = await harness();
    const json = await postJson(
      h.app,
      '/api/submissions',
      validSubmission({ server_name: 'Pip Hunters', category: 'Trading', subcategory: 'Forex Trading' }),
    );
    expect(json.status).toBe(201);
    const form = await postForm(
      h.app,
      '/api/submissions',
      formOf({ server_name: 'Hoop Picks', category: 'Sports Betting', subcategory: 'NBA' }),
    );
    expect(form.status).toBe(303);
    // The no-JS form sends an empty select when no subcategory is chosen.
    const none = await postForm(h.app, '/api/submissions', formOf({ server_name: 'Plain Guild', subcategory: '' }));
    expect(none.status).toBe(303);
    expect(await storedSubcategories(h)).toEqual([
      ['Pip Hunters', 'Forex Trading'],
      ['Hoop Picks', 'NBA'],
      ['Plain Guild', null],
    ]);
  });

  it('refuses a subcategory of another category with a 400 naming the field', async () => {
    h = await harness();
    const res = await postJson(h.app, '/api/submissions', validSubmission({ category: 'Crypto', subcategory: 'NFL' }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: { path: string }[] } };
    expect(body.error.issues.map((i) => i.path)).toEqual(['subcategory']);
    expect(await storedSubcategories(h)).toEqual([]);
  });
});

describe('approving a submission with a subcategory', () => {
  const submission = (subcategory: string | null) => ({
    server_name: 'Chart Wizards',
    server_description: 'Stock chart analysis for swing traders.',
    category: 'Investing',
    subcategory,
    invite_link: 'https://discord.gg/chartwiz',
    server_image: null,
    contact_email: 'owner@example.com',
    features: null,
    member_count: 400,
    active_users: 40,
    submitter_name: 'Ada',
    is_owner: true,
  });

  it('stores the owner’s subcategory on the listing, which its subcategory page then lists', async () => {
    h = await harness();
    const mod = await h.signIn('moderator');
    const sub = await insertSubmission(h.db, submission('Stocks'));
    const res = await h.call(mod, 'POST', `/api/admin/submissions/${sub.id}/approve`, {});
    expect(res.status).toBe(200);
    const { server } = (await res.json()) as { server: { subcategory: string | null } };
    expect(server.subcategory).toBe('Stocks');
    const page = await listServers(h.db, { category: 'Investing', subcategory: 'stocks' });
    expect(page.servers.map((s) => s.name)).toEqual(['Chart Wizards']);
  });

  it('lets the reviewer set or clear the subcategory on approval, stored on both rows', async () => {
    h = await harness();
    const mod = await h.signIn('moderator');
    const set = await insertSubmission(h.db, submission(null));
    const res = await h.call(mod, 'POST', `/api/admin/submissions/${set.id}/approve`, { subcategory: 'Day Trading' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { server: { subcategory: string }; submission: { subcategory: string } };
    expect(body.server.subcategory).toBe('Day Trading');
    expect(body.submission.subcategory).toBe('Day Trading');

    const cleared = await insertSubmission(h.db, { ...submission('Stocks'), server_name: 'Other Wizards' });
    const res2 = await h.call(mod, 'POST', `/api/admin/submissions/${cleared.id}/approve`, { subcategory: null });
    expect(((await res2.json()) as { server: { subcategory: string | null } }).server.subcategory).toBeNull();
  });

  it('refuses a reviewer’s subcategory of another category with a 400 naming the field, approving nothing', async () => {
    h = await harness();
    const mod = await h.signIn('moderator');
    const sub = await insertSubmission(h.db, submission(null));
    const res = await h.call(mod, 'POST', `/api/admin/submissions/${sub.id}/approve`, { subcategory: 'Bitcoin' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: { path: string }[] } };
    expect(body.error.issues.map((i) => i.path)).toEqual(['subcategory']);
    const rows = await h.client.execute('SELECT status FROM server_submissions');
    expect(rows.rows[0]?.status).toBe('pending');
    expect((await h.client.execute('SELECT count(*) AS n FROM discord_servers')).rows[0]?.n).toBe(0);
  });
});
