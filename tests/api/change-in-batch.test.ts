import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompOrder } from '../../db/queries/orders';
import { listSiteChanges } from '../../db/queries/site-changes';
import { insertCheckedSubmission } from '../../db/queries/submissions';
import {
  auditLog,
  discordServers,
  orders,
  ownerUsers,
  reviews,
  serverFlags,
  serverSlugs,
  serverSubmissions,
  stripeEvents,
} from '../../db/schema';
import type { RebuildTrigger } from '../../functions/_app/context';
import { applyEvent } from '../../functions/_app/lib/order-events';
import { HookRebuildTrigger } from '../../functions/_app/lib/rebuild-hook';
import { seedServer } from './api-harness';
import { createOwnerHarness, guild } from './owner-harness';

type Harness = Awaited<ReturnType<typeof createOwnerHarness>>;

let h: Harness | undefined;
let hook: HookRebuildTrigger | undefined;
afterEach(async () => {
  // Sends what is queued (to the stand-in below) so no debounce timer outlives the test.
  await hook?.flush();
  hook = undefined;
  await h?.cleanup();
  h = undefined;
});

/** The trigger the app is given: the harness makes the database the trigger needs, so it forwards to `hook`. */
const forward: RebuildTrigger = {
  request: (...args) => hook!.request(...args),
  prepare: (...args) => hook!.prepare(...args),
  status: () => hook!.status(),
};

/**
 * An owner harness whose rebuild trigger is the production one (HookRebuildTrigger) over the
 * harness's database: each change is recorded in site_changes, through `prepare` in the write's
 * batch. Its deploy hook is a stand-in that answers 200.
 */
async function harnessRecordingChanges(): Promise<Harness> {
  h = await createOwnerHarness({}, { rebuild: forward });
  hook = new HookRebuildTrigger({
    url: 'https://hooks.example/deploy',
    fetch: (async () => new Response(null, { status: 200 })) as typeof fetch,
    db: h.db,
    debounceMs: 60_000,
  });
  return h;
}

/** Makes every site_changes insert fail (a crash, a full disk) until `allowChanges`. */
const refuseChanges = (db: Harness['db']) =>
  db.run(
    sql`CREATE TRIGGER change_refused BEFORE INSERT ON site_changes BEGIN SELECT RAISE(ABORT, 'change refused'); END`,
  );
const allowChanges = (db: Harness['db']) => db.run(sql`DROP TRIGGER change_refused`);

const GUILD = '800000000000000777';

/** One write that changes what visitors see: how to make it, what it stores, and the change it records. */
interface Case {
  name: string;
  /** Sets up what the write needs; answers how to make it and what to compare. */
  setup: (h: Harness) => Promise<{
    /** Makes the write: the HTTP status it answered (or 200 for a direct call that resolved; 500 when it threw). */
    write: () => Promise<number>;
    /** What the write stores (everything it touches), read from the database. */
    stored: () => Promise<unknown>;
    status: number;
    reason: string | RegExp;
    pages: string[];
    /** The status of the same write made again when it then changes nothing (and so records nothing). */
    again?: number;
  }>;
}

const cases: Case[] = [
  {
    name: 'an approval',
    setup: async (h) => {
      const submitted = await insertCheckedSubmission(h.db, {
        server_name: 'Batched Arena',
        server_description: 'A guild whose approval and its record are one write.',
        category: 'Gaming',
        invite_link: 'https://discord.gg/batchedarena',
        server_image: 'https://cdn.example.com/arena.png',
        contact_email: 'owner@example.com',
        member_count: 900,
        active_users: 90,
        submitter_name: 'Ana',
        is_owner: true,
        guild_id: '555000000000000001',
      });
      if (!submitted.ok) throw new Error('not stored');
      const s = await h.signIn('moderator');
      const id = submitted.submission.id;
      return {
        write: async () => (await h.call(s, 'POST', `/api/admin/submissions/${id}/approve`, {})).status,
        stored: async () => ({
          submission: (await h.db.select().from(serverSubmissions).where(eq(serverSubmissions.id, id)))[0]?.status,
          listings: await h.db.select({ slug: discordServers.slug }).from(discordServers),
          mails: (await h.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM mail_outbox`))[0]!.n,
          audited: (await h.db.select().from(auditLog).where(eq(auditLog.action, 'approve'))).length,
        }),
        status: 200,
        reason: 'approved batched-arena',
        pages: ['/server/batched-arena'],
        again: 409,
      };
    },
  },
  {
    name: 'a console edit (a rename: both slugs)',
    setup: async (h) => {
      const listing = await seedServer(h.db, { name: 'Old Name Hall' });
      const s = await h.signIn('admin');
      const body = { name: 'New Name Hall', description: 'Renamed.', category: 'Gaming', members: 1000 };
      return {
        write: async () => (await h.call(s, 'PUT', `/api/admin/servers/${listing.id}`, body)).status,
        stored: async () => ({
          listing: (await h.db.select().from(discordServers).where(eq(discordServers.id, listing.id))).map((r) => [
            r.name,
            r.slug,
            r.description,
          ]),
          slugs: await h.db.select().from(serverSlugs),
          audited: (await h.db.select().from(auditLog).where(eq(auditLog.action, 'update'))).length,
        }),
        status: 200,
        reason: 'edited new-name-hall',
        pages: ['/server/new-name-hall', '/server/old-name-hall'],
      };
    },
  },
  {
    name: "an owner's invite change",
    setup: async (h) => {
      const listing = await seedServer(h.db, {
        name: 'Owned Hall',
        guild_id: GUILD,
        invite_code: 'oldinvite',
        affiliate_link: 'https://discord.gg/oldinvite',
      });
      const owner = await h.signInOwner([guild(GUILD, { owner: true })]);
      h.discord.invites.set('newinvite', { guild: { id: GUILD, name: 'Same' }, memberCount: 1234, onlineCount: 99 });
      return {
        write: async () =>
          (
            await h.ownerCall(owner, 'POST', `/api/account/listings/${listing.id}/invite`, {
              invite_link: 'https://discord.gg/newinvite',
            })
          ).status,
        stored: async () => ({
          listing: (await h.db.select().from(discordServers).where(eq(discordServers.id, listing.id))).map((r) => [
            r.affiliate_link,
            r.members,
          ]),
          audited: (await h.db.select().from(auditLog).where(eq(auditLog.action, 'replace_invite'))).length,
        }),
        status: 200,
        reason: 'owner replaced the invite of owned-hall',
        pages: ['/server/owned-hall'],
      };
    },
  },
  {
    name: "a placement event (a comp's payment starts its slot)",
    setup: async (h) => {
      const listing = await seedServer(h.db, { name: 'Placed Hall' });
      const comp = await createCompOrder(h.db, {
        serverId: listing.id,
        category: listing.category,
        placement: 'premium',
        termDays: 7,
        grantedBy: 'ops@example.com',
      });
      const deps = { db: h.db, env: h.env, rebuild: forward };
      return {
        write: () =>
          applyEvent(deps, {
            eventId: `comp:${comp.id}`,
            type: 'app.comp',
            orderId: comp.id,
            event: 'paid',
            at: Date.now(),
          })
            .then(() => 200)
            .catch(() => 500),
        stored: async () => ({
          order: (await h.db.select().from(orders).where(eq(orders.id, comp.id))).map((o) => [o.state, o.starts_at]),
          events: await h.db.select().from(stripeEvents),
          premium: (await h.db.select().from(discordServers).where(eq(discordServers.id, listing.id)))[0]?.is_premium,
        }),
        status: 200,
        reason: new RegExp(`^placement of placed-hall: order ${comp.id} paid$`),
        pages: ['/server/placed-hall'],
        // A replay of the event applies nothing.
        again: 200,
      };
    },
  },
  {
    name: 'a review hide',
    setup: async (h) => {
      const listing = await seedServer(h.db, { name: 'Reviewed Hall' });
      const [author] = await h.db
        .insert(ownerUsers)
        .values({ discord_user_id: '700000000000000555', username: 'reviewer' })
        .returning();
      const [review] = await h.db
        .insert(reviews)
        .values({
          server_id: listing.id,
          account_id: author!.id,
          rating: 2,
          body: 'Off-topic words that a moderator hides.',
          display_name: 'reviewer',
          member_since: '2025-01-01T00:00:00.000Z',
        })
        .returning();
      const s = await h.signIn('moderator');
      return {
        write: async () =>
          (await h.call(s, 'POST', `/api/admin/reviews/${review!.id}`, { action: 'hide', reason: 'off-topic' })).status,
        stored: async () => ({
          review: (await h.db.select().from(reviews).where(eq(reviews.id, review!.id))).map((r) => [
            r.status,
            r.hidden_reason,
          ]),
          audited: (await h.db.select().from(auditLog).where(eq(auditLog.action, 'review_hide'))).length,
        }),
        status: 200,
        reason: 'review hide on reviewed-hall',
        pages: ['/server/reviewed-hall'],
      };
    },
  },
];

describe('a public change is recorded in the batch of the write that makes it', () => {
  it.each(cases)(
    '$name: when its record fails nothing is stored; when it succeeds the record names its pages',
    async ({ setup }) => {
      const harness = await harnessRecordingChanges();
      const c = await setup(harness);
      const before = await c.stored();

      await refuseChanges(harness.db);
      expect(await c.write()).toBe(500);
      expect(await c.stored()).toEqual(before);
      expect(await listSiteChanges(harness.db)).toEqual([]);

      await allowChanges(harness.db);
      expect(await c.write()).toBe(c.status);
      expect(await c.stored()).not.toEqual(before);
      const changes = await listSiteChanges(harness.db);
      expect(changes.map((r) => r.page).sort()).toEqual([...c.pages].sort());
      for (const change of changes) {
        expect(change.reason).toMatch(typeof c.reason === 'string' ? new RegExp(`^${c.reason}$`) : c.reason);
        expect(change.scope).toBe('listings');
      }
      // Asked for once stored: the deploy hook is queued for it.
      expect(hook!.status().state).toBe('queued');
      if (c.again !== undefined) {
        expect(await c.write()).toBe(c.again);
        expect(await listSiteChanges(harness.db)).toEqual(changes);
      }
    },
  );
});

describe('a write that changes nothing records no change', () => {
  it('a flag confirmed twice: the second verdict, refused in its batch (409), records nothing', async () => {
    const harness = await harnessRecordingChanges();
    const listing = await seedServer(harness.db, { name: 'Flagged Hall' });
    const [flag] = await harness.db
      .insert(serverFlags)
      .values({ server_id: listing.id, rule: 'spike_no_presence', detail: 'Members rose.' })
      .returning();
    const s = await harness.signIn('moderator');
    const confirm = () => harness.call(s, 'PATCH', `/api/admin/freshness/flags/${flag!.id}`, { verdict: 'confirmed' });
    expect((await confirm()).status).toBe(200);
    const recorded = await listSiteChanges(harness.db);
    expect(recorded.map((r) => [r.reason, r.page])).toEqual([
      ['confirmed spike_no_presence on flagged-hall', '/server/flagged-hall'],
    ]);
    // The UPDATE finds the flag reviewed and changes nothing: neither its audit row nor its record is written.
    expect((await confirm()).status).toBe(409);
    expect(await listSiteChanges(harness.db)).toEqual(recorded);
  });
});
