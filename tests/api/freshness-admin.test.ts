import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFlagQueue } from '../../db/queries/flags';
import { auditLog, discordServers, jobState, type NewServerRow, serverFlags } from '../../db/schema';
import { createAdminHarness, type Session } from '../helpers/admin';
import { type DiscordStandIn, startDiscordStandIn } from '../helpers/discord-stand-in';

let h: Awaited<ReturnType<typeof createAdminHarness>>;
let moderator: Session;
let discord: DiscordStandIn;
const NOW = Date.parse('2026-11-23T12:00:00.000Z');

beforeAll(async () => {
  discord = await startDiscordStandIn();
  h = await createAdminHarness({ env: { DISCORD_API_BASE: discord.url }, deps: { now: () => NOW } });
  moderator = await h.signIn('moderator');
});
afterAll(async () => {
  h.cleanup();
  await discord.close();
});

const unique = () => Math.random().toString(36).slice(2, 8);

async function listing(change: Partial<NewServerRow> = {}) {
  const name = `Freshness ${unique()}`;
  const [row] = await h.db
    .insert(discordServers)
    .values({
      name,
      slug: name.toLowerCase().replace(/\W+/g, '-'),
      category: 'Crypto',
      members: 50_000,
      active_users: 600,
      ...change,
    })
    .returning();
  return row!;
}

async function flagged(rule = 'spike_no_presence') {
  const server = await listing({ invite_status: 'ok' });
  const [flag] = await h.db
    .insert(serverFlags)
    .values({ server_id: server.id, rule, detail: 'Members rose by 30,000 (+150 %) in 24 hours.' })
    .returning();
  return { server, flag: flag! };
}

describe('GET /api/admin/freshness', () => {
  it('shows the refresh job (last run, lookups in the current window, blocked until and why), states and the queue', async () => {
    const refresh = {
      name: 'refresh',
      last_run_at: new Date(NOW - 5 * 60_000).toISOString(),
      last_run_summary: { checked: 12, ok: 11, unknown: 1 },
      window_start: new Date(NOW - 3 * 60_000).toISOString(),
      window_count: 42,
      blocked_until: new Date(NOW + 3_600_000).toISOString(),
      block_reason: '429 from Discord (global)',
    };
    await h.db.insert(jobState).values(refresh).onConflictDoUpdate({ target: jobState.name, set: refresh });
    await listing({ invite_status: 'dead', last_checked_at: new Date(NOW - 3_600_000).toISOString() });
    const { server, flag } = await flagged();

    const res = await h.call(moderator, 'GET', '/api/admin/freshness');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const body = (await res.json()) as {
      refresh: Record<string, unknown>;
      statuses: Record<string, number>;
      queue: { id: number; server_id: number; name: string; detail: string }[];
      queueTotal: number;
    };
    expect(body.refresh).toMatchObject({
      lastRunAt: new Date(NOW - 5 * 60_000).toISOString(),
      lastRunSummary: { checked: 12 },
      lookupsInWindow: 42,
      perWindow: 160,
      blockedUntil: new Date(NOW + 3_600_000).toISOString(),
      blockReason: '429 from Discord (global)',
    });
    expect(body.statuses.dead).toBeGreaterThanOrEqual(1);
    expect(body.statuses.ok).toBeGreaterThanOrEqual(1);
    expect(body.queue.find((q) => q.id === flag.id)).toMatchObject({ server_id: server.id, name: server.name });
    expect(body.queueTotal).toBeGreaterThanOrEqual(1);
  });

  it('lists the listings whose invite is not ok, one state at a time', async () => {
    const dead = await listing({ invite_status: 'dead', last_checked_at: new Date(NOW - 7_200_000).toISOString() });
    const ok = await listing({ invite_status: 'ok' });
    const any = (await (await h.call(moderator, 'GET', '/api/admin/freshness/servers?per_page=200')).json()) as {
      servers: { id: number }[];
    };
    expect(any.servers.map((s) => s.id)).toContain(dead.id);
    expect(any.servers.map((s) => s.id)).not.toContain(ok.id);
    const okOnly = (await (
      await h.call(moderator, 'GET', '/api/admin/freshness/servers?status=ok&per_page=200')
    ).json()) as {
      servers: { id: number; invite_status: string }[];
    };
    expect(okOnly.servers.every((s) => s.invite_status === 'ok')).toBe(true);
    expect((await h.call(moderator, 'GET', '/api/admin/freshness/servers?status=gone')).status).toBe(400);
  });
});

describe('PATCH /api/admin/freshness/flags/:id', () => {
  it('a moderator confirms a flag: it leaves the queue, is audited, and the site rebuilds to show it', async () => {
    const { server, flag } = await flagged();
    const res = await h.call(moderator, 'PATCH', `/api/admin/freshness/flags/${flag.id}`, { verdict: 'confirmed' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { flag: { verdict: string } }).flag.verdict).toBe('confirmed');
    expect((await listFlagQueue(h.db)).map((f) => f.id)).not.toContain(flag.id);
    const [entry] = await h.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity_id, String(flag.id)));
    expect(entry).toMatchObject({ action: 'confirm', entity: 'flag' });
    expect(entry!.details).toMatchObject({ server_id: server.id, rule: 'spike_no_presence' });
    expect(h.rebuild.reasons.at(-1)).toContain(server.slug);
  });

  it('an admin dismisses a flag: closed, audited, no rebuild; reviewing it again is 409', async () => {
    const admin = await h.signIn('admin');
    const { flag } = await flagged('low_presence');
    const rebuilds = h.rebuild.reasons.length;
    const res = await h.call(admin, 'PATCH', `/api/admin/freshness/flags/${flag.id}`, { verdict: 'dismissed' });
    expect(res.status).toBe(200);
    const [row] = await h.db.select().from(serverFlags).where(eq(serverFlags.id, flag.id));
    expect(row).toMatchObject({ verdict: 'dismissed', closed_at: new Date(NOW).toISOString() });
    expect(row!.reviewed_by).toMatch(/^admin-/);
    const [entry] = await h.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity_id, String(flag.id)));
    expect(entry).toMatchObject({ action: 'dismiss', entity: 'flag' });
    expect(h.rebuild.reasons.length).toBe(rebuilds);

    const again = await h.call(admin, 'PATCH', `/api/admin/freshness/flags/${flag.id}`, { verdict: 'confirmed' });
    expect(again.status).toBe(409);
  });

  it('refuses a verdict it does not know (400) and a flag that does not exist (404)', async () => {
    const { flag } = await flagged();
    expect(
      (await h.call(moderator, 'PATCH', `/api/admin/freshness/flags/${flag.id}`, { verdict: 'maybe' })).status,
    ).toBe(400);
    expect(
      (await h.call(moderator, 'PATCH', '/api/admin/freshness/flags/999999', { verdict: 'confirmed' })).status,
    ).toBe(404);
  });

  it('without a session every Freshness route answers 401 and changes nothing', async () => {
    const { flag } = await flagged();
    expect((await h.call(null, 'GET', '/api/admin/freshness')).status).toBe(401);
    expect(
      (await h.call(null, 'PATCH', `/api/admin/freshness/flags/${flag.id}`, { verdict: 'confirmed' })).status,
    ).toBe(401);
    const [row] = await h.db.select().from(serverFlags).where(eq(serverFlags.id, flag.id));
    expect(row!.verdict).toBeNull();
  });
});

describe('POST /api/admin/freshness/servers/:id/refresh', () => {
  const unblock = () =>
    h.db
      .insert(jobState)
      .values({ name: 'refresh' })
      .onConflictDoUpdate({ target: jobState.name, set: { blocked_until: '', window_start: '', window_count: 0 } });

  it('answers 503 with Retry-After while Discord lookups are paused, asking Discord nothing', async () => {
    const server = await listing({ invite_code: `paused${unique()}` });
    await unblock();
    await h.db
      .update(jobState)
      .set({ blocked_until: new Date(NOW + 60_000).toISOString(), block_reason: 'rate_limited' })
      .where(eq(jobState.name, 'refresh'));
    const asked = discord.requests.length;
    const res = await h.call(moderator, 'POST', `/api/admin/freshness/servers/${server.id}/refresh`, {});
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(discord.requests.length).toBe(asked);
  });

  it('an admin clears the breaker (audited) and lookups resume at once; a moderator may not', async () => {
    const server = await listing({ invite_code: `cleared${unique()}` });
    discord.invites.set(server.invite_code!, {
      guild: { id: '613425648685547542', name: 'Cleared', icon: null },
      memberCount: 10,
      onlineCount: 1,
    });
    await unblock();
    await h.db
      .update(jobState)
      .set({ blocked_until: '2058-01-01T00:00:00.000Z', block_reason: 'rate_limited', block_level: 2 })
      .where(eq(jobState.name, 'refresh'));
    expect((await h.call(moderator, 'POST', '/api/admin/freshness/breaker/clear', {})).status).toBe(403);
    const admin = await h.signIn('admin');
    expect((await h.call(admin, 'POST', '/api/admin/freshness/breaker/clear', {})).status).toBe(200);
    const [state] = await h.db.select().from(jobState).where(eq(jobState.name, 'refresh'));
    expect(state).toMatchObject({ blocked_until: '', block_level: 0 });
    const [entry] = await h.db.select().from(auditLog).where(eq(auditLog.action, 'clear_breaker'));
    expect(entry).toMatchObject({ entity: 'job', entity_id: 'refresh' });
    expect(entry!.details).toMatchObject({ blocked_until: '2058-01-01T00:00:00.000Z', level: 2 });
    expect((await h.call(moderator, 'POST', `/api/admin/freshness/servers/${server.id}/refresh`, {})).status).toBe(200);
  });

  it('checks one listing against Discord now, writes its counts and history, and is audited', async () => {
    const code = `now${unique()}`;
    discord.invites.set(code, {
      guild: { id: '613425648685547541', name: 'Checked Now', icon: null },
      memberCount: 2_345,
      onlineCount: 321,
    });
    const server = await listing({ invite_code: code, members: 10, active_users: 1 });
    await unblock();
    const res = await h.call(moderator, 'POST', `/api/admin/freshness/servers/${server.id}/refresh`, {});
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ kind: 'ok', publicChange: true });
    const [row] = await h.db.select().from(discordServers).where(eq(discordServers.id, server.id));
    expect(row).toMatchObject({ members: 2_345, active_users: 321, invite_status: 'ok' });
    expect(row!.last_checked_at).toBe(new Date(NOW).toISOString());
    const [entry] = await h.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entity_id, String(server.id)));
    expect(entry).toMatchObject({ action: 'refresh', entity: 'server' });
    expect(h.rebuild.reasons).toContain('refresh');
  });

  it('answers 404 for a listing without an invite code', async () => {
    const server = await listing({ invite_code: null });
    expect((await h.call(moderator, 'POST', `/api/admin/freshness/servers/${server.id}/refresh`, {})).status).toBe(404);
  });
});
