import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { insertInteractions } from '../../db/queries/interactions';
import { getOwnerByDiscordId } from '../../db/queries/owners';
import { getServerById } from '../../db/queries/servers';
import {
  auditLog,
  discordServers,
  listingEdits,
  ownerSessions,
  ownerUsers,
  serverClaims,
  serverSnapshots,
  serverSubmissions,
  userInteractions,
} from '../../db/schema';
import { seedServer, validSubmission } from './api-harness';
import { createOwnerHarness, guild, SITE } from './owner-harness';

let h: Awaited<ReturnType<typeof createOwnerHarness>> | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const GUILD = '800000000000000001';

/** A harness, a listing of GUILD, and its owner signed in (owner flag). */
async function ownedListing(overrides: Parameters<typeof seedServer>[1] = {}) {
  h = await createOwnerHarness();
  const listing = await seedServer(h.db, {
    guild_id: GUILD,
    category: 'Crypto',
    description: 'The original description of this community.',
    tags: ['retro'],
    features: ['Weekly races'],
    invite_code: 'oldinvite',
    affiliate_link: 'https://discord.gg/oldinvite',
    ...overrides,
  });
  const owner = await h.signInOwner([guild(GUILD, { owner: true })]);
  return { harness: h, listing, owner };
}

describe('My listings', () => {
  it('lists the claimed listings with their state and the submissions still in review', async () => {
    const { harness, owner } = await ownedListing({ invite_status: 'dead' });
    harness.discord.invites.set('pendingone', {
      guild: { id: '800000000000000009', name: 'P' },
      memberCount: 300,
      onlineCount: 1,
    });
    await harness.app.request(`${SITE}/api/submissions`, {
      method: 'POST',
      headers: { cookie: owner.cookie, origin: SITE, 'content-type': 'application/json' },
      body: JSON.stringify(
        validSubmission({ invite_link: 'https://discord.gg/pendingone', server_name: 'Waiting One' }),
      ),
    });
    const body = (await (await harness.ownerCall(owner, 'GET', '/api/account/listings')).json()) as {
      listings: { invite_status: string; is_active: boolean; proof: string }[];
      pending: { server_name: string; owner_verified: boolean }[];
    };
    expect(body.listings).toMatchObject([{ invite_status: 'dead', is_active: true, proof: 'owner' }]);
    expect(body.pending).toMatchObject([{ server_name: 'Waiting One', owner_verified: false }]);
  });

  it('without a session the owner routes answer 401', async () => {
    h = await createOwnerHarness();
    expect((await h.ownerCall(null, 'GET', '/api/account/listings')).status).toBe(401);
  });
});

describe('an owner edit goes through review to the live listing', () => {
  it('stored as a diff, unchanged until approved; approval applies it, rebuilds and is audited', async () => {
    const { harness, listing, owner } = await ownedListing();
    const sent = await harness.ownerCall(owner, 'POST', `/api/account/listings/${listing.id}/edits`, {
      description: 'A new description written by the owner of this community.',
      tags: ['retro', 'speedrun'],
      features: ['Weekly races'],
      subcategory: 'DeFi',
    });
    expect(sent.status).toBe(201);
    const { edit } = (await sent.json()) as { edit: { id: number; changes: Record<string, unknown> } };
    // Only what changed, as { from, to }.
    expect(edit.changes).toEqual({
      description: {
        from: 'The original description of this community.',
        to: 'A new description written by the owner of this community.',
      },
      tags: { from: ['retro'], to: ['retro', 'speedrun'] },
      subcategory: { from: null, to: 'DeFi' },
    });
    expect((await getServerById(harness.db, listing.id))!.description).toBe(
      'The original description of this community.',
    );

    const mod = await harness.signIn('moderator');
    const queue = (await (await harness.call(mod, 'GET', '/api/admin/edits?status=pending')).json()) as {
      edits: { id: number; server_name: string; owner_username: string; changes: unknown }[];
    };
    expect(queue.edits).toMatchObject([{ id: edit.id, server_name: listing.name, owner_username: 'stand-in-owner' }]);

    const approved = await harness.call(mod, 'POST', `/api/admin/edits/${edit.id}/approve`, {});
    expect(approved.status).toBe(200);
    const live = await getServerById(harness.db, listing.id);
    expect(live).toMatchObject({
      description: 'A new description written by the owner of this community.',
      tags: ['retro', 'speedrun'],
      subcategory: 'DeFi',
    });
    expect(harness.rebuild.reasons).toContain(`owner edit of ${listing.slug} approved`);
    const [entry] = await harness.db.select().from(auditLog).where(eq(auditLog.entity, 'listing_edit'));
    expect(entry).toMatchObject({ action: 'approve', entity_id: String(edit.id) });
    expect(entry!.operator_email).toMatch(/^moderator-/);
    expect(entry!.details).toMatchObject({ server_id: listing.id, changes: edit.changes });
    // Decided once.
    expect((await harness.call(mod, 'POST', `/api/admin/edits/${edit.id}/approve`, {})).status).toBe(409);
  });

  it('a rejected edit leaves the listing as it was', async () => {
    const { harness, listing, owner } = await ownedListing();
    const { edit } = (await (
      await harness.ownerCall(owner, 'POST', `/api/account/listings/${listing.id}/edits`, { tags: ['spam'] })
    ).json()) as { edit: { id: number } };
    const mod = await harness.signIn('moderator');
    const res = await harness.call(mod, 'POST', `/api/admin/edits/${edit.id}/reject`, { admin_notes: 'Not a tag' });
    expect(res.status).toBe(200);
    expect((await getServerById(harness.db, listing.id))!.tags).toEqual(['retro']);
    expect(harness.rebuild.reasons).toEqual([]);
  });

  it('a second edit while one waits replaces it; an edit that changes nothing is refused', async () => {
    const { harness, listing, owner } = await ownedListing();
    const path = `/api/account/listings/${listing.id}/edits`;
    expect((await harness.ownerCall(owner, 'POST', path, { tags: ['a'] })).status).toBe(201);
    expect((await harness.ownerCall(owner, 'POST', path, { tags: ['b'] })).status).toBe(201);
    const rows = await harness.db.select().from(listingEdits);
    expect(rows.map((r) => r.changes)).toEqual([{ tags: { from: ['retro'], to: ['b'] } }]);
    const same = await harness.ownerCall(owner, 'POST', path, { tags: ['retro'] });
    expect(same.status).toBe(400);
  });

  it('a subcategory of another category is refused on the field', async () => {
    const { harness, listing, owner } = await ownedListing();
    const res = await harness.ownerCall(owner, 'POST', `/api/account/listings/${listing.id}/edits`, {
      subcategory: 'Not A Subcategory',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { issues: { path: string }[] } }).error.issues[0]!.path).toBe('subcategory');
  });

  it("a listing that is not the owner's cannot be edited, renumbered or removed", async () => {
    const { harness, owner } = await ownedListing();
    const other = await seedServer(harness.db, { guild_id: '800000000000000002' });
    for (const [method, path, body] of [
      ['POST', `/api/account/listings/${other.id}/edits`, { tags: ['x'] }],
      ['POST', `/api/account/listings/${other.id}/invite`, { invite_link: 'https://discord.gg/x' }],
      ['GET', `/api/account/listings/${other.id}/numbers`, undefined],
      ['DELETE', `/api/account/listings/${other.id}`, undefined],
    ] as const)
      expect((await harness.ownerCall(owner, method, path, body)).status).toBe(404);
    expect(await getServerById(harness.db, other.id)).not.toBeNull();
  });
});

describe('replacing the invite', () => {
  it('checks the new invite with Discord at once; a working one restores a listing dead for its invite', async () => {
    const { harness, listing, owner } = await ownedListing({ invite_status: 'dead', fail_streak: 4 });
    harness.discord.invites.set('freshinvite', {
      guild: { id: GUILD, name: 'Same guild' },
      memberCount: 4321,
      onlineCount: 321,
    });
    const res = await harness.ownerCall(owner, 'POST', `/api/account/listings/${listing.id}/invite`, {
      invite_link: 'https://discord.gg/freshinvite',
    });
    expect(res.status).toBe(200);
    expect(await getServerById(harness.db, listing.id)).toMatchObject({
      affiliate_link: 'https://discord.gg/freshinvite',
      invite_code: 'freshinvite',
      invite_status: 'ok',
      fail_streak: 0,
      members: 4321,
      active_users: 321,
    });
    expect(harness.discord.requests.some((r) => r.path.startsWith('/api/v10/invites/freshinvite'))).toBe(true);
    const snapshots = await harness.db.select().from(serverSnapshots).where(eq(serverSnapshots.server_id, listing.id));
    expect(snapshots.map((s) => s.member_count)).toEqual([4321]);
    expect(harness.rebuild.reasons).toContain(`owner replaced the invite of ${listing.slug}`);
    const [entry] = await harness.db.select().from(auditLog).where(eq(auditLog.action, 'replace_invite'));
    expect(entry!.operator_email).toBe(`owner stand-in-owner (Discord ${harness.discord.oauth.user.id})`);
  });

  it('refuses an invite Discord does not know, and one to another guild, leaving the listing as it was', async () => {
    const { harness, listing, owner } = await ownedListing({ invite_status: 'dead' });
    harness.discord.invites.set('otherguild', {
      guild: { id: '800000000000000099', name: 'Other' },
      memberCount: 1,
      onlineCount: 1,
    });
    const path = `/api/account/listings/${listing.id}/invite`;
    const unknown = await harness.ownerCall(owner, 'POST', path, { invite_link: 'https://discord.gg/nosuchcode' });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/does not know/);
    const other = await harness.ownerCall(owner, 'POST', path, { invite_link: 'https://discord.gg/otherguild' });
    expect(other.status).toBe(400);
    expect(((await other.json()) as { error: { message: string } }).error.message).toMatch(/another Discord server/);
    expect(await getServerById(harness.db, listing.id)).toMatchObject({
      affiliate_link: 'https://discord.gg/oldinvite',
      invite_status: 'dead',
    });
  });
});

describe("the listing's numbers", () => {
  it('views, join clicks and conversion for 7, 30 and 90 days, daily figures and the member history', async () => {
    const { harness, listing, owner } = await ownedListing();
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    const event = (type: 'view' | 'click') => ({
      interaction_type: type,
      target_type: 'server' as const,
      server_id: listing.id,
    });
    const rows = [
      ...Array.from({ length: 8 }, () => ({ ...event('view'), created_at: daysAgo(1) })),
      ...Array.from({ length: 2 }, () => ({ ...event('click'), created_at: daysAgo(1) })),
      ...Array.from({ length: 10 }, () => ({ ...event('view'), created_at: daysAgo(20) })),
      ...Array.from({ length: 5 }, () => ({ ...event('click'), created_at: daysAgo(20) })),
      ...Array.from({ length: 2 }, () => ({ ...event('view'), created_at: daysAgo(60) })),
      // Older than 90 days, and another listing's: not counted.
      { ...event('view'), created_at: daysAgo(120) },
    ];
    await harness.db.insert(userInteractions).values(rows);
    await insertInteractions(harness.db, { interaction_type: 'view', target_type: 'server', server_id: null });
    await harness.db.insert(serverSnapshots).values([
      { server_id: listing.id, checked_at: daysAgo(10), outcome: 'ok', member_count: 900, online_count: 90 },
      { server_id: listing.id, checked_at: daysAgo(2), outcome: 'ok', member_count: 1000, online_count: 120 },
    ]);
    const res = await harness.ownerCall(owner, 'GET', `/api/account/listings/${listing.id}/numbers`);
    expect(res.status).toBe(200);
    const numbers = (await res.json()) as {
      windows: { days: number; views: number; clicks: number; conversion: number }[];
      daily: unknown[];
      members: { members: number }[];
    };
    expect(numbers.windows).toEqual([
      { days: 7, views: 8, clicks: 2, conversion: 0.25 },
      { days: 30, views: 18, clicks: 7, conversion: 7 / 18 },
      { days: 90, views: 20, clicks: 7, conversion: 0.35 },
    ]);
    expect(numbers.daily).toHaveLength(90);
    expect(numbers.members.map((m) => m.members)).toEqual([900, 1000]);
  });
});

describe('removing a listing and deleting the account', () => {
  it('the owner removes their listing from the directory', async () => {
    const { harness, listing, owner } = await ownedListing();
    expect((await harness.ownerCall(owner, 'DELETE', `/api/account/listings/${listing.id}`)).status).toBe(200);
    expect(await getServerById(harness.db, listing.id)).toBeNull();
    expect(harness.rebuild.reasons).toContain(`owner removed ${listing.slug}`);
  });

  it('deleting the account removes everything tied to it; the public listing stays, unclaimed', async () => {
    const { harness, listing, owner } = await ownedListing();
    harness.discord.invites.set('mysubmission', {
      guild: { id: '800000000000000003', name: 'S' },
      memberCount: 300,
      onlineCount: 1,
    });
    await harness.app.request(`${SITE}/api/submissions`, {
      method: 'POST',
      headers: { cookie: owner.cookie, origin: SITE, 'content-type': 'application/json' },
      body: JSON.stringify(validSubmission({ invite_link: 'https://discord.gg/mysubmission' })),
    });
    await harness.ownerCall(owner, 'POST', `/api/account/listings/${listing.id}/edits`, { tags: ['waiting'] });
    harness.discord.invites.set('ownnewinvite', { guild: { id: GUILD, name: 'G' }, memberCount: 90, onlineCount: 1 });
    await harness.ownerCall(owner, 'POST', `/api/account/listings/${listing.id}/invite`, {
      invite_link: 'https://discord.gg/ownnewinvite',
    });
    const ownerRow = await getOwnerByDiscordId(harness.db, harness.discord.oauth.user.id);

    const res = await harness.ownerCall(owner, 'DELETE', '/api/account');
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => /^gr_owner=;.*Max-Age=0/.test(c))).toBe(true);
    expect(await harness.db.select().from(ownerUsers)).toEqual([]);
    expect(await harness.db.select().from(ownerSessions)).toEqual([]);
    expect(await harness.db.select().from(serverClaims)).toEqual([]);
    expect(await harness.db.select().from(listingEdits)).toEqual([]);
    const [submission] = await harness.db.select().from(serverSubmissions);
    expect(submission!.owner_id).toBeNull();
    const [stays] = await harness.db.select().from(discordServers).where(eq(discordServers.id, listing.id));
    expect(stays).toMatchObject({ name: listing.name, description: listing.description });
    expect(ownerRow).not.toBeNull();
    // The audit log keeps what the owner did, not who they were on Discord.
    const [entry] = await harness.db.select().from(auditLog).where(eq(auditLog.action, 'replace_invite'));
    expect(entry!.operator_email).toBe('owner (account deleted)');
    expect(JSON.stringify(entry)).not.toContain(harness.discord.oauth.user.id);
    expect((await harness.ownerCall(owner, 'GET', '/api/account/listings')).status).toBe(401);
  });
});
