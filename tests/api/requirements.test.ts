// The listing requirements (#32) as the product applies them: each refusing requirement refuses a
// submission (and an owner's replacement invite) naming the requirement and linking /requirements,
// storing nothing; each niche rule flags the submission for the reviewer with the matched words.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAdminHarness } from '../helpers/admin';
import { type DiscordStandIn, type StandInInvite, startDiscordStandIn } from '../helpers/discord-stand-in';
import { countRows, postJson, seedServer, validSubmission } from './api-harness';
import { createOwnerHarness, guild } from './owner-harness';

const BIG: StandInInvite = {
  guild: { id: '713000000000000001', name: 'Big Guild' },
  memberCount: 500,
  onlineCount: 50,
};

type Refusal = { error: { code: string; message: string; issues?: { path: string; message: string }[] } };
type Flag = { rule: string; href: string; fields: { field: string; matches: { text: string }[] }[] };

let discord: DiscordStandIn;
let h: Awaited<ReturnType<typeof createAdminHarness>>;
let serial = 0;
beforeAll(async () => {
  discord = await startDiscordStandIn();
});
afterAll(() => discord.close());
beforeEach(async () => {
  discord.invites.clear();
  h = await createAdminHarness({ env: { DISCORD_API_BASE: discord.url, RATE_LIMITS: 'false' } });
});
afterEach(() => h.cleanup());

/** Submits a server whose invite Discord answers with `invite` on top of BIG (a fresh guild each time). */
async function submitWith(invite: Partial<StandInInvite> & { nsfwLevel?: number }, body: Record<string, unknown> = {}) {
  const code = `req${++serial}`;
  const { nsfwLevel, ...rest } = invite;
  discord.invites.set(code, {
    ...BIG,
    ...rest,
    guild: { ...BIG.guild, id: `7130000000000${String(serial).padStart(5, '0')}`, nsfwLevel: nsfwLevel ?? 0 },
  });
  return postJson(h.app, '/api/submissions', validSubmission({ invite_link: `https://discord.gg/${code}`, ...body }));
}

async function refusedOn(res: Response, path: string, requirement: string, words: RegExp) {
  expect(res.status).toBe(400);
  const { error } = (await res.json()) as Refusal;
  const issue = error.issues?.find((i) => i.path === path);
  expect(issue?.message).toMatch(words);
  if (requirement) expect(issue?.message).toContain(`/requirements#${requirement}`);
}

describe('refusing requirements', () => {
  it('members: a server Discord counts under MIN_MEMBERS is refused naming the requirement; at the minimum it is stored', async () => {
    await refusedOn(await submitWith({ memberCount: 7 }), 'invite_link', 'members', /7 members.*at least 50/);
    expect(await countRows(h.client, 'server_submissions')).toBe(0);
    expect((await submitWith({ memberCount: 50 })).status).toBe(201);
  });

  it('members: the minimum is the MIN_MEMBERS setting', async () => {
    h.cleanup();
    h = await createAdminHarness({ env: { DISCORD_API_BASE: discord.url, RATE_LIMITS: 'false', MIN_MEMBERS: '100' } });
    await refusedOn(await submitWith({ memberCount: 60 }), 'invite_link', 'members', /60 members.*at least 100/);
    expect((await submitWith({ memberCount: 100 })).status).toBe(201);
  });

  it('members: the invite preview carries the count and the minimum, for the form to check before sending', async () => {
    discord.invites.set('small', { ...BIG, memberCount: 7 });
    const res = await h.app.request('/api/invites/small');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { invite: unknown }).invite).toMatchObject({ member_count: 7, min_members: 50 });
  });

  it('permanent-invite: an invite with an expiry is refused, saying so', async () => {
    await refusedOn(
      await submitWith({ expiresAt: '2030-01-02T03:04:05+00:00' }),
      'invite_link',
      'permanent-invite',
      /expires \(2030-01-02 03:04 UTC\).*never expire/,
    );
    expect(await countRows(h.client, 'server_submissions')).toBe(0);
  });

  it('not-age-restricted: an age-restricted server is refused outside sports betting and accepted in it', async () => {
    for (const level of [1, 3])
      await refusedOn(
        await submitWith({ nsfwLevel: level }, { category: 'Gaming' }),
        'invite_link',
        'not-age-restricted',
        /age-restricted/,
      );
    expect(await countRows(h.client, 'server_submissions')).toBe(0);
    const betting = await submitWith({ nsfwLevel: 3 }, { category: 'Sports Betting', features: '18+ only' });
    expect(betting.status).toBe(201);
    expect((await submitWith({ nsfwLevel: 2 }, { category: 'Gaming' })).status).toBe(201);
  });

  it('category: a category outside the five is refused on the category field', async () => {
    const res = await submitWith({}, { category: 'Anime' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Refusal).error.issues?.map((i) => i.path)).toContain('category');
    expect(await countRows(h.client, 'server_submissions')).toBe(0);
  });

  it("an owner's replacement invite meets the same requirements: under the minimum or expiring, it is refused naming them", async () => {
    const oh = await createOwnerHarness();
    try {
      const listing = await seedServer(oh.db, { guild_id: '990000000000000077', category: 'Gaming' });
      const owner = await oh.signInOwner([guild('990000000000000077', { owner: true })]);
      const path = `/api/account/listings/${listing.id}/invite`;
      oh.discord.invites.set('tiny', {
        guild: { id: '990000000000000077', name: 'G' },
        memberCount: 9,
        onlineCount: 1,
      });
      const tiny = await oh.ownerCall(owner, 'POST', path, { invite_link: 'https://discord.gg/tiny' });
      expect(tiny.status).toBe(400);
      expect(((await tiny.json()) as Refusal).error.message).toMatch(/9 members.*\/requirements#members/);
      oh.discord.invites.set('adult', {
        guild: { id: '990000000000000077', name: 'G', nsfwLevel: 3 },
        memberCount: 900,
        onlineCount: 1,
      });
      const adult = await oh.ownerCall(owner, 'POST', path, { invite_link: 'https://discord.gg/adult' });
      expect(((await adult.json()) as Refusal).error.message).toMatch(/\/requirements#not-age-restricted/);
      oh.discord.invites.set('fine', {
        guild: { id: '990000000000000077', name: 'G' },
        memberCount: 900,
        onlineCount: 1,
      });
      expect((await oh.ownerCall(owner, 'POST', path, { invite_link: 'https://discord.gg/fine' })).status).toBe(200);
    } finally {
      await oh.cleanup();
    }
  });
});

describe('flagging requirements', () => {
  async function flagsOf(res: Response): Promise<Flag[]> {
    expect(res.status).toBe(201);
    const { submission } = (await res.json()) as { submission: { id: number; status: string } };
    expect(submission.status).toBe('pending');
    const admin = await h.signIn('moderator');
    const detail = await h.call(admin, 'GET', `/api/admin/submissions/${submission.id}`);
    return ((await detail.json()) as { submission: { flags: Flag[] } }).submission.flags;
  }

  it('no-promised-returns: a crypto promise of returns is stored and flagged with the matched words, not refused', async () => {
    const flags = await flagsOf(
      await submitWith(
        {},
        {
          category: 'Crypto',
          server_description: 'Guaranteed profit every week from our calls, join now.',
          features: 'Signals with a 100% win rate',
        },
      ),
    );
    expect(flags.map((f) => f.rule)).toEqual(['no-promised-returns']);
    expect(flags[0]!.href).toBe('/requirements#no-promised-returns');
    expect(flags[0]!.fields.map((f) => [f.field, f.matches.map((m) => m.text)])).toEqual([
      ['server_description', ['Guaranteed profit']],
      ['features', ['100% win rate']],
    ]);
  });

  it('betting-18-plus: sports betting without an 18+ statement is flagged; with one it is not', async () => {
    const missing = await flagsOf(
      await submitWith(
        {},
        { category: 'Sports Betting', server_description: 'NFL and NBA picks daily.', features: '' },
      ),
    );
    expect(missing.map((f) => f.rule)).toEqual(['betting-18-plus']);
    const stated = await flagsOf(
      await submitWith({}, { category: 'Sports Betting', server_description: 'NFL picks. 18+ only.', features: '' }),
    );
    expect(stated).toEqual([]);
  });

  it('the console lists waiting submissions oldest first by default, each with its flags', async () => {
    const first = await submitWith({}, { server_name: 'First In', category: 'Trading', features: 'risk-free' });
    expect(first.status).toBe(201);
    await h.client.execute("UPDATE server_submissions SET created_at = '2026-01-01T00:00:00.000Z'");
    expect((await submitWith({}, { server_name: 'Second In' })).status).toBe(201);
    const admin = await h.signIn('moderator');
    const list = (await (await h.call(admin, 'GET', '/api/admin/submissions?status=pending')).json()) as {
      submissions: { server_name: string; flags: Flag[] }[];
    };
    expect(list.submissions.map((s) => [s.server_name, s.flags.map((f) => f.rule)])).toEqual([
      ['First In', ['no-promised-returns']],
      ['Second In', []],
    ]);
    const newest = (await (await h.call(admin, 'GET', '/api/admin/submissions?sort=newest')).json()) as {
      submissions: { server_name: string }[];
    };
    expect(newest.submissions.map((s) => s.server_name)).toEqual(['Second In', 'First In']);
  });
});
