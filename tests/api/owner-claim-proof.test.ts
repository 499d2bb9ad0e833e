// A verified owner's submission, once approved, is claimed by the proof it carried (#17): the owner
// flag of Discord's guild list, or the Manage Server bit; stored with the submission (owner_proof)
// and in the audit log (who sent what).
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { OWNER_SUBMIT_ACTION } from '../../db/queries/owners';
import { auditLog, serverClaims, serverSubmissions } from '../../db/schema';
import { validSubmission } from './api-harness';
import { createOwnerHarness, guild, type OwnerSession, PERMISSIONS, SITE } from './owner-harness';

let h: Awaited<ReturnType<typeof createOwnerHarness>> | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** Sends a submission of `code`'s guild as the signed-in owner; answers its id. */
async function submitAs(owner: OwnerSession | null, code: string, name: string): Promise<number> {
  const res = await h!.app.request(`${SITE}/api/submissions`, {
    method: 'POST',
    headers: { ...(owner ? { cookie: owner.cookie } : {}), origin: SITE, 'content-type': 'application/json' },
    body: JSON.stringify(validSubmission({ invite_link: `https://discord.gg/${code}`, server_name: name })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { submission: { id: number } }).submission.id;
}

/** Approves a submission in the console; answers the new listing's id. */
async function approve(id: number): Promise<number> {
  const mod = await h!.signIn('moderator');
  const res = await h!.call(mod, 'POST', `/api/admin/submissions/${id}/approve`, {});
  expect(res.status).toBe(200);
  return ((await res.json()) as { server: { id: number } }).server.id;
}

const claimOf = async (serverId: number) =>
  (await h!.db.select().from(serverClaims).where(eq(serverClaims.server_id, serverId))).map((c) => c.proof);

describe("an approved owner's submission is claimed by its real proof", () => {
  it('the owner flag: claimed as owner, and the audit log says who sent it with which proof', async () => {
    h = await createOwnerHarness();
    h.discord.invites.set('ownedguild', {
      guild: { id: '610000000000000001', name: 'Owned' },
      memberCount: 100,
      onlineCount: 10,
    });
    const owner = await h.signInOwner([guild('610000000000000001', { owner: true })]);
    const id = await submitAs(owner, 'ownedguild', 'Owned Guild');
    const [entry] = await h.db.select().from(auditLog).where(eq(auditLog.action, OWNER_SUBMIT_ACTION));
    expect(entry).toMatchObject({
      entity: 'submission',
      entity_id: String(id),
      operator_id: null,
      operator_email: `owner stand-in-owner (Discord ${h.discord.oauth.user.id})`,
    });
    expect(entry!.details).toMatchObject({ guild_id: '610000000000000001', proof: 'owner' });
    const [sent] = await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, id));
    expect(sent).toMatchObject({ owner_verified: true, owner_proof: 'owner' });

    const serverId = await approve(id);
    expect(await claimOf(serverId)).toEqual(['owner']);
    const { listings } = (await (await h.ownerCall(owner, 'GET', '/api/account/listings')).json()) as {
      listings: { id: number; proof: string }[];
    };
    expect(listings).toMatchObject([{ id: serverId, proof: 'owner' }]);
  });

  it('the Manage Server bit: claimed as manage_guild', async () => {
    h = await createOwnerHarness();
    h.discord.invites.set('managedguild', {
      guild: { id: '610000000000000002', name: 'Managed' },
      memberCount: 100,
      onlineCount: 10,
    });
    const owner = await h.signInOwner([guild('610000000000000002', { permissions: PERMISSIONS.manageGuild })]);
    const serverId = await approve(await submitAs(owner, 'managedguild', 'Managed Guild'));
    expect(await claimOf(serverId)).toEqual(['manage_guild']);
  });

  it('a signed-in owner without proof, and an anonymous sender, get no claim on approval', async () => {
    h = await createOwnerHarness();
    h.discord.invites.set('memberguild', {
      guild: { id: '610000000000000003', name: 'Member' },
      memberCount: 100,
      onlineCount: 10,
    });
    h.discord.invites.set('anonguild', {
      guild: { id: '610000000000000004', name: 'Anon' },
      memberCount: 100,
      onlineCount: 10,
    });
    const member = await h.signInOwner([guild('610000000000000003')]);
    const unproven = await submitAs(member, 'memberguild', 'Member Guild');
    const [entry] = await h.db.select().from(auditLog).where(eq(auditLog.action, OWNER_SUBMIT_ACTION));
    expect(entry!.details).toMatchObject({ guild_id: '610000000000000003', proof: null });
    expect(await claimOf(await approve(unproven))).toEqual([]);
    expect(await claimOf(await approve(await submitAs(null, 'anonguild', 'Anon Guild')))).toEqual([]);
  });

  it('the claim follows the last sign-in: an owner shown only Manage Server now claims by it', async () => {
    h = await createOwnerHarness();
    h.discord.invites.set('oldguild', {
      guild: { id: '610000000000000005', name: 'Old' },
      memberCount: 100,
      onlineCount: 10,
    });
    const owner = await h.signInOwner([guild('610000000000000005', { owner: true })]);
    const id = await submitAs(owner, 'oldguild', 'Old Guild');
    const [row] = await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, id));
    expect(row).toMatchObject({ owner_verified: true, owner_proof: 'owner' });
    // The review queue shows how old the proof is: the sign-in's time.
    expect(Date.parse(row!.owner_proven_at!)).toBeLessThanOrEqual(Date.parse(row!.created_at));
    await h.signInOwner([guild('610000000000000005', { permissions: PERMISSIONS.manageGuild })]);
    expect(await claimOf(await approve(id))).toEqual(['manage_guild']);
  });
});

describe('a stale proof claims nothing (security round 3)', () => {
  it('a session kept from before losing Manage Server sends an unverified submission and gets no claim', async () => {
    h = await createOwnerHarness();
    h.discord.invites.set('takeover', {
      guild: { id: '610000000000000006', name: 'Takeover' },
      memberCount: 100,
      onlineCount: 10,
    });
    // A manager signs in and keeps a copy of every cookie the sign-in set.
    const before = await h.signInOwner([guild('610000000000000006', { permissions: PERMISSIONS.manageGuild })]);
    // They lose Manage Server and sign in again (which releases their claims)...
    await h.signInOwner([guild('610000000000000006')]);
    // ...then send the old cookies with a new submission of the guild.
    const id = await submitAs(before, 'takeover', 'Takeover');
    const [row] = await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, id));
    expect(row).toMatchObject({ owner_verified: false, owner_proof: null, owner_proven_at: null });
    expect(await claimOf(await approve(id))).toEqual([]);
  });

  it('a proof lost between submitting and approval claims nothing: approval re-proves it', async () => {
    h = await createOwnerHarness();
    h.discord.invites.set('lostproof', {
      guild: { id: '610000000000000007', name: 'Lost' },
      memberCount: 100,
      onlineCount: 10,
    });
    const owner = await h.signInOwner([guild('610000000000000007', { permissions: PERMISSIONS.manageGuild })]);
    const id = await submitAs(owner, 'lostproof', 'Lost Proof');
    await h.signInOwner([]);
    expect(await claimOf(await approve(id))).toEqual([]);
  });

  it('the proof ends with its session: signed out, the same cookies prove nothing', async () => {
    h = await createOwnerHarness();
    h.discord.invites.set('signedout', {
      guild: { id: '610000000000000008', name: 'Signed out' },
      memberCount: 100,
      onlineCount: 10,
    });
    const owner = await h.signInOwner([guild('610000000000000008', { owner: true })]);
    expect((await h.ownerCall(owner, 'POST', '/api/account/sign-out')).status).toBe(200);
    const id = await submitAs(owner, 'signedout', 'Signed Out');
    const [row] = await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, id));
    expect(row).toMatchObject({ owner_id: null, owner_verified: false });
  });
});
