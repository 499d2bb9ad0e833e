import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateServer } from '../../db/queries/servers';
import { discordServers } from '../../db/schema';
import { recomputeRanks } from '../../functions/_app/jobs/rank';
import { badgeTallyFor } from '../../functions/_app/lib/badge-tally';
import { formatMembers, formatNumber } from '../../src/lib/format';
import { compareServers, isListed } from '../../src/lib/listing';
import { createTestApp, seedServer, type TestApp } from './api-harness';

let t: TestApp;
const slugs = { live: '', hidden: '', dead: '' };
let liveId = 0;

beforeAll(async () => {
  t = await createTestApp();
  const live = await seedServer(t.db, {
    name: 'Badge Alpha',
    members: 12_456,
    active_users: 1_987,
    invite_status: 'ok',
    last_checked_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    last_ok_at: new Date(Date.now() - 3 * 3_600_000).toISOString(),
  });
  await seedServer(t.db, {
    name: 'Badge Bigger',
    members: 50_000,
    active_users: 9_000,
    invite_status: 'ok',
    last_ok_at: new Date(Date.now() - 3_600_000).toISOString(),
  });
  const hidden = await seedServer(t.db, { name: 'Badge Hidden', is_active: false });
  const dead = await seedServer(t.db, { name: 'Badge Dead', invite_status: 'dead', members: 700 });
  Object.assign(slugs, { live: live.slug, hidden: hidden.slug, dead: dead.slug });
  liveId = live.id;
  // The rank job scores and places them (category_place), as it does after a refresh pass.
  await recomputeRanks(t.db, new Date());
});
afterAll(() => t?.cleanup());

/** The badge as strict XML: its root, its title and its two texts. */
function parseBadge(svg: string) {
  const root = new DOMParser({
    onError: (level, msg) => {
      if (level !== 'warning') throw new Error(msg);
    },
  }).parseFromString(svg, 'image/svg+xml').documentElement!;
  const texts = Array.from(root.getElementsByTagName('text')).map((n) => n.textContent);
  return { root, title: root.getElementsByTagName('title')[0]?.textContent, label: texts[0], message: texts[1] };
}

const badge = (path: string, headers: Record<string, string> = {}) =>
  Promise.resolve(t.app.request(`/badge/${path}`, { headers }));

describe('GET /badge/{slug}.svg', () => {
  it('is an SVG with role="img", a title and the numbers the page and the API show', async () => {
    const res = await badge(`${slugs.live}.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const api = await (await t.app.request(`/api/v1/servers/${slugs.live}`)).json();
    const svg = parseBadge(await res.text());
    expect(svg.root.getAttribute('role')).toBe('img');
    expect(svg.label).toBe('GuildRank');
    expect(svg.message).toBe(`${formatMembers(api.members)} members · ${formatMembers(api.online)} online`);
    expect(svg.message).toBe('12.4K members · 1.9K online');
    expect(svg.title).toBe(`GuildRank: ${svg.message}`);
  });

  it('has a variant for members, online, rank in category and rating, in light and dark', async () => {
    const message = async (q: string) => parseBadge(await (await badge(`${slugs.live}.svg?${q}`)).text()).message;
    expect(await message('variant=members')).toBe('12.4K members');
    expect(await message('variant=online&style=dark')).toBe('1.9K online');
    // The place the server page and the API show, counted here over the category's listed servers.
    const rows = (await t.db.select().from(discordServers)).filter((r) => isListed(r) && r.category === 'Gaming');
    const self = rows.find((r) => r.slug === slugs.live)!;
    expect(self.rank_score).toBeGreaterThan(0);
    const ahead = rows.filter((r) => compareServers('active')(r, self) < 0).length;
    const api = await (await t.app.request(`/api/v1/servers/${slugs.live}`)).json();
    expect(api.rank.place).toEqual({ rank: ahead + 1, of: rows.length });
    expect(rows.length).toBeGreaterThan(1);
    expect(await message('variant=rank')).toBe(`#${ahead + 1} in Gaming`);
    expect(await message('variant=rating')).toBe('no reviews yet');
    // An empty value is the default, and other parameters (a cache-buster) are ignored.
    expect(await message('variant=&style=&v=2')).toBe('12.4K members · 1.9K online');
    const dark = await (await badge(`${slugs.live}.svg?style=dark`)).text();
    const light = await (await badge(`${slugs.live}.svg`)).text();
    expect(dark).not.toBe(light);
  });

  it('refuses an unknown variant or style with a 400 naming the parameter, not another badge in its place', async () => {
    for (const [query, field] of [
      ['variant=nonsense', 'variant'],
      ['variant=Members', 'variant'],
      ['variant=members&variant=online', 'variant'],
      ['style=neon', 'style'],
      ['variant=rank&style=Dark', 'style'],
    ] as const) {
      for (const slug of [slugs.live, 'no-such-listing']) {
        const res = await badge(`${slug}.svg?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.headers.get('cache-control') ?? '', query).not.toMatch(/max-age=[1-9]/);
        const body = (await res.json()) as { error: { code: string; message: string; issues: { path: string }[] } };
        expect(body.error.code).toBe('validation_failed');
        expect(body.error.message).toBe(`Invalid ${field}`);
        expect(body.error.issues.map((i) => i.path)).toEqual([field]);
      }
    }
  });

  it('is the grey "unavailable" badge, with a 200, for a hidden listing, a dead invite or an unknown slug', async () => {
    for (const path of [`${slugs.hidden}.svg`, `${slugs.dead}.svg`, 'no-such-listing.svg', 'Bad%20Slug!.svg']) {
      const res = await badge(path);
      expect(res.status, path).toBe(200);
      const svg = parseBadge(await res.text());
      expect(svg.message, path).toBe('unavailable');
      expect(svg.root.toString()).toContain('#6b7280');
    }
  });

  it('keeps working under a former slug after a rename', async () => {
    const renamed = await seedServer(t.db, { name: 'Badge Renamed', members: 2_500, invite_status: 'ok' });
    const old = renamed.slug;
    await updateServer(t.db, renamed.id, { slug: 'badge-renamed-now' });
    const svg = parseBadge(await (await badge(`${old}.svg?variant=members`)).text());
    expect(svg.message).toBe('2.5K members');
  });

  it('is cached 10 minutes with an ETag (304 on a match) and sets no cookie', async () => {
    const res = await badge(`${slugs.live}.svg`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    expect(res.headers.get('set-cookie')).toBeNull();
    const tag = res.headers.get('etag');
    expect(tag).toBeTruthy();
    const again = await badge(`${slugs.live}.svg`, { 'if-none-match': tag! });
    expect(again.status).toBe(304);
  });

  it('counts fetches as one row per listing and day, never a row per fetch', async () => {
    const before = await t.client.execute({
      sql: 'SELECT coalesce(sum(fetches), 0) AS n FROM badge_fetches WHERE server_id = ?',
      args: [liveId],
    });
    await badgeTallyFor(t.db).flush();
    for (let i = 0; i < 5; i++) await badge(`${slugs.live}.svg?variant=members`);
    await badgeTallyFor(t.db).flush();
    const rows = await t.client.execute({
      sql: 'SELECT day, fetches FROM badge_fetches WHERE server_id = ?',
      args: [liveId],
    });
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(Number(rows.rows[0]!.fetches) - Number(before.rows[0]!.n)).toBeGreaterThanOrEqual(5);
    // Unavailable badges count nothing.
    await badge(`${slugs.hidden}.svg`);
    await badge(`${slugs.dead}.svg`);
    await badgeTallyFor(t.db).flush();
    const hiddenRows = await t.client.execute({
      sql: 'SELECT count(*) AS n FROM badge_fetches JOIN discord_servers d ON d.id = server_id WHERE d.slug IN (?, ?)',
      args: [slugs.hidden, slugs.dead],
    });
    expect(Number(hiddenRows.rows[0]!.n)).toBe(0);
  });
});

describe('GET /embed/{slug}', () => {
  it('is a small card with the page’s numbers, no script, links in a new tab, and framable by any page', async () => {
    const res = await t.app.request(`/embed/${slugs.live}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/(^|; )frame-ancestors \*(;|$)/);
    expect(csp).toMatch(/(^|; )default-src 'none'/);
    expect(csp).not.toMatch(/script-src/);
    // A listing's own icon is a path on the site (/icons/servers/…): on a site served over http
    // (npm start's default) `img-src https:` alone blocked it, a broken image in the card.
    expect(csp).toMatch(/(^|; )img-src 'self' https: data:(;|$)/);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
    const html = await res.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`>${formatNumber(12_456)}</span> members`);
    expect(html).toContain(`>${formatNumber(1_987)}</span> online`);
    expect(html).toContain('3 hours ago');
    const links = [...html.matchAll(/<a [^>]*>/g)].map((m) => m[0]);
    expect(links.length).toBeGreaterThanOrEqual(3);
    for (const a of links) expect(a).toContain('target="_blank"');
    expect(html).toContain(`/go/${slugs.live}?from=embed`);
  });

  it('every other answer still refuses to be framed', async () => {
    for (const path of ['/', '/api/v1/categories', `/badge/${slugs.live}.svg`, '/go/nope']) {
      const res = await t.app.request(path);
      expect(res.headers.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/);
    }
  });

  it('says a dead invite stopped working (no Join) and answers 404 for a hidden listing', async () => {
    const dead = await (await t.app.request(`/embed/${slugs.dead}`)).text();
    expect(dead).toMatch(/stopped working/);
    expect(dead).not.toContain('/go/');
    const hidden = await t.app.request(`/embed/${slugs.hidden}`);
    expect(hidden.status).toBe(404);
    expect(await hidden.text()).toMatch(/not available/);
  });

  it('counts a join through the card with the source embed', async () => {
    const res = await t.app.request(`/go/${slugs.live}?from=embed`);
    expect(res.status).toBe(302);
    const rows = await t.client.execute({
      sql: "SELECT metadata FROM user_interactions WHERE target_id = ? AND interaction_type = 'click'",
      args: [slugs.live],
    });
    expect(rows.rows.map((r) => JSON.parse(String(r.metadata)))).toContainEqual({ action: 'join', source: 'embed' });
  });
});
