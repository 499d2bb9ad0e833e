// POST /api/submissions checks the invite with Discord again (a loopback stand-in): what Discord
// says is stored with the submission, a refused invite or a guild already there stores nothing,
// and approval copies Discord's facts to the listing as its first check.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertSubmission } from '../../db/queries/submissions';
import { SCHEDULE } from '../../src/lib/invite-checks/state';
import { createAdminHarness } from '../helpers/admin';
import { type DiscordStandIn, type StandInInvite, startDiscordStandIn } from '../helpers/discord-stand-in';
import { countRows, ORIGIN, postForm, postJson, seedServer, validSubmission } from './api-harness';

const GUILD = '613425648685547541';
const PIXEL: StandInInvite = {
  guild: { id: GUILD, name: 'Pixel Raiders HQ', icon: 'a_0f1e2d3c' },
  memberCount: 48_210,
  onlineCount: 5_307,
};

type Refusal = { error: { code: string; message: string; issues?: { path: string; message: string }[] } };

let discord: DiscordStandIn;
let h: Awaited<ReturnType<typeof createAdminHarness>>;
beforeAll(async () => {
  discord = await startDiscordStandIn();
});
afterAll(() => discord.close());
beforeEach(async () => {
  discord.invites.clear();
  discord.mode = { kind: 'normal' };
  discord.invites.set('pixelraid', PIXEL);
  h = await createAdminHarness({ env: { DISCORD_API_BASE: discord.url, RATE_LIMITS: 'false' } });
});
afterEach(() => h.cleanup());

const submit = (overrides: Record<string, unknown> = {}) =>
  postJson(h.app, '/api/submissions', validSubmission(overrides));

describe('POST /api/submissions checks the invite with Discord', () => {
  it("stores Discord's guild id, icon hash, invite code, member and online counts; typed counts are ignored", async () => {
    const res = await submit({ member_count: 999_999, active_users: 99_999 });
    expect(res.status).toBe(201);
    const { submission } = (await res.json()) as { submission: Record<string, unknown> };
    expect(submission).toMatchObject({
      invite_link: 'https://discord.gg/pixelraid',
      guild_id: GUILD,
      guild_icon: 'a_0f1e2d3c',
      invite_code: 'pixelraid',
      member_count: 48_210,
      active_users: 5_307,
      status: 'pending',
    });
    const rows = await h.client.execute('SELECT guild_id, member_count, active_users FROM server_submissions');
    expect(rows.rows).toEqual([
      expect.objectContaining({ guild_id: GUILD, member_count: 48_210, active_users: 5_307 }),
    ]);
    expect(discord.requests.map((r) => r.path)).toEqual(['/api/v10/invites/pixelraid?with_counts=true']);
  });

  it('accepts a submission without any counts (the form sends none)', async () => {
    const { member_count: _m, active_users: _a, ...body } = validSubmission();
    const res = await postJson(h.app, '/api/submissions', body);
    expect(res.status).toBe(201);
  });

  it('refuses unknown, expiring and paused invites with 400 on invite_link and stores nothing', async () => {
    discord.invites.set('temp', { ...PIXEL, expiresAt: '2030-01-02T03:04:05+00:00' });
    discord.invites.set('paused', { ...PIXEL, guild: { ...PIXEL.guild, features: ['INVITES_DISABLED'] } });
    for (const [code, words] of [
      ['gone123', /does not know this invite/],
      ['temp', /never expire/],
      ['paused', /paused its invites/],
    ] as const) {
      const res = await submit({ invite_link: `https://discord.gg/${code}` });
      expect(res.status, code).toBe(400);
      const { error } = (await res.json()) as Refusal;
      expect(error.code).toBe('validation_failed');
      expect(error.message).toBe('Please check the Invite link field.');
      expect(error.issues).toEqual([{ path: 'invite_link', message: expect.stringMatching(words) }]);
    }
    expect(await countRows(h.client, 'server_submissions')).toBe(0);
  });

  it('sends a refused form post back to the form naming the invite field', async () => {
    const fields = Object.fromEntries(
      Object.entries(validSubmission({ invite_link: 'https://discord.gg/gone123', is_owner: 'on', terms: 'on' })).map(
        ([k, v]) => [k, String(v)],
      ),
    );
    const res = await postForm(h.app, '/api/submissions', fields);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location') ?? '', ORIGIN);
    expect(location.pathname).toBe('/submit-server');
    expect(location.searchParams.get('error')).toBe('validation_failed');
    expect(location.searchParams.get('fields')).toBe('invite_link');
  });

  it('answers 409 for a guild already listed, and for one already waiting for review', async () => {
    await seedServer(h.db, { name: 'Pixel Raiders', guild_id: GUILD });
    const listed = await submit();
    expect(listed.status).toBe(409);
    const listedError = ((await listed.json()) as Refusal).error;
    expect(listedError).toMatchObject({ code: 'already_listed', message: expect.stringMatching(/already listed/) });
    expect(listedError.issues?.[0]?.path).toBe('invite_link');

    discord.invites.set('other', { ...PIXEL, guild: { ...PIXEL.guild, id: '713425648685547541' } });
    expect((await submit({ invite_link: 'https://discord.gg/other' })).status).toBe(201);
    // Another invite of the same guild is the same guild.
    discord.invites.set('other2', discord.invites.get('other')!);
    const pending = await submit({ invite_link: 'https://discord.gg/other2', server_name: 'Copy' });
    expect(pending.status).toBe(409);
    expect(((await pending.json()) as Refusal).error).toMatchObject({
      code: 'already_submitted',
      message: expect.stringMatching(/waiting for review/),
    });
    expect(await countRows(h.client, 'server_submissions')).toBe(1);
  });

  it('stores one of two simultaneous submissions of one guild, answering the other 409', async () => {
    const answers = await Promise.all([submit({ server_name: 'First' }), submit({ server_name: 'Second' })]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await countRows(h.client, 'server_submissions')).toBe(1);
  });

  it('answers 503 with Retry-After and stores nothing when Discord cannot be asked', async () => {
    discord.mode = { kind: 'rate_limited', retryAfter: 12 };
    const limited = await submit();
    expect(limited.status).toBe(503);
    expect(limited.headers.get('retry-after')).toBe('12');
    discord.mode = { kind: 'server_error' };
    const down = await submit();
    expect(down.status).toBe(503);
    expect(((await down.json()) as Refusal).error.code).toBe('discord_unavailable');
    expect(await countRows(h.client, 'server_submissions')).toBe(0);
  });
});

describe('approving a checked submission', () => {
  it("copies Discord's guild id, icon, invite code and counts to the listing, checked ok at the submission's check", async () => {
    const res = await submit();
    const { submission } = (await res.json()) as { submission: { id: number; created_at: string } };
    const session = await h.signIn('moderator');
    const approved = await h.call(session, 'POST', `/api/admin/submissions/${submission.id}/approve`, {});
    expect(approved.status).toBe(200);
    const { server } = (await approved.json()) as { server: Record<string, unknown> & { id: number } };
    expect(server).toMatchObject({
      guild_id: GUILD,
      guild_icon: 'a_0f1e2d3c',
      invite_code: 'pixelraid',
      members: 48_210,
      active_users: 5_307,
      invite_status: 'ok',
      last_checked_at: submission.created_at,
      last_ok_at: submission.created_at,
      next_check_at: new Date(Date.parse(submission.created_at) + SCHEDULE.okMs).toISOString(),
    });
    // Due again within a day of the check.
    expect(Date.parse(String(server.next_check_at)) - Date.parse(submission.created_at)).toBeLessThanOrEqual(
      86_400_000,
    );
    const history = await h.client.execute({
      sql: 'SELECT checked_at, outcome, member_count, online_count FROM server_snapshots WHERE server_id = ?',
      args: [server.id],
    });
    expect(history.rows).toEqual([
      expect.objectContaining({
        checked_at: submission.created_at,
        outcome: 'ok',
        member_count: 48_210,
        online_count: 5_307,
      }),
    ]);
    // Listed now: the guild cannot be submitted again.
    expect((await submit()).status).toBe(409);
  });

  it('answers 409 when another listing already has the guild, creating nothing', async () => {
    const listing = await seedServer(h.db, { name: 'Pixel Raiders', guild_id: GUILD });
    const row = await insertSubmission(h.db, {
      ...validSubmission(),
      server_name: 'Pixel Raiders Again',
      category: 'Gaming',
      member_count: 10,
      active_users: 1,
      is_owner: true,
      guild_id: GUILD,
      guild_icon: null,
      invite_code: 'pixelraid',
    } as Parameters<typeof insertSubmission>[1]);
    const session = await h.signIn('moderator');
    const res = await h.call(session, 'POST', `/api/admin/submissions/${row.id}/approve`, {});
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as Refusal;
    expect(error.code).toBe('guild_listed');
    expect(error.message).toContain(`/server/${listing.slug}`);
    expect(await countRows(h.client, 'discord_servers')).toBe(1);
    const stored = await h.client.execute({
      sql: 'SELECT status FROM server_submissions WHERE id = ?',
      args: [row.id],
    });
    expect(stored.rows[0]?.status).toBe('pending');
  });

  it('leaves a submission from before the check unchecked and due now', async () => {
    const row = await insertSubmission(h.db, {
      ...validSubmission(),
      category: 'Gaming',
      member_count: 10,
      active_users: 1,
      is_owner: true,
    } as Parameters<typeof insertSubmission>[1]);
    const session = await h.signIn('moderator');
    const res = await h.call(session, 'POST', `/api/admin/submissions/${row.id}/approve`, {});
    expect(res.status).toBe(200);
    const { server } = (await res.json()) as { server: Record<string, unknown> };
    expect(server).toMatchObject({
      guild_id: null,
      invite_status: 'unchecked',
      last_checked_at: null,
      next_check_at: '',
    });
  });
});
