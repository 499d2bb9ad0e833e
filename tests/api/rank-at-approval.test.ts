import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { insertCheckedSubmission } from '../../db/queries/submissions';
import { discordServers } from '../../db/schema';
import { recomputeRanks } from '../../functions/_app/jobs/rank';
import { createAdminHarness } from '../helpers/admin';

let h: Awaited<ReturnType<typeof createAdminHarness>>;
afterEach(() => h?.cleanup());

const HOUR = 3_600_000;
const hoursAgo = (n: number) => new Date(Date.now() - n * HOUR).toISOString();

/** A listing whose invite a check found working an hour ago. */
async function checkedListing(name: string, category: string, members: number, online: number) {
  const [row] = await h.db
    .insert(discordServers)
    .values({
      name,
      slug: name.toLowerCase().replace(/\W+/g, '-'),
      category,
      members,
      active_users: online,
      invite_status: 'ok',
      last_checked_at: hoursAgo(1),
      last_ok_at: hoursAgo(1),
      created_at: hoursAgo(24 * 300),
    })
    .returning();
  return row!;
}

describe('a listing is ranked at approval', () => {
  it('the approved listing has its score at once, and the rebuild names its page and those whose place it moved', async () => {
    h = await createAdminHarness();
    await checkedListing('Quiet Guild', 'Gaming', 2_000, 100);
    await checkedListing('Calm Guild', 'Gaming', 3_000, 150);
    await checkedListing('Coin Hall', 'Crypto', 9_000, 900);
    await recomputeRanks(h.db, new Date());

    // A checked submission (Discord answered when it was sent): far busier than both Gaming listings.
    const submitted = await insertCheckedSubmission(h.db, {
      server_name: 'Busy Arena',
      server_description: 'A very lively arena for competitive players.',
      category: 'Gaming',
      invite_link: 'https://discord.gg/busyarena',
      server_image: 'https://cdn.example.com/arena.png',
      contact_email: 'owner@example.com',
      member_count: 8_000,
      active_users: 2_400,
      submitter_name: 'Ana',
      is_owner: true,
      guild_id: '123456789012345678',
    });
    if (!submitted.ok) throw new Error('not stored');
    const s = await h.signIn('moderator');
    const res = await h.call(s, 'POST', `/api/admin/submissions/${submitted.submission.id}/approve`, {});
    expect(res.status).toBe(200);

    const [busy] = await h.db.select().from(discordServers).where(eq(discordServers.slug, 'busy-arena'));
    expect(busy!.rank_score).toBeGreaterThan(0);
    expect(busy!.rank_explain).toMatchObject({ status: 1 });
    const gaming = await h.db.select().from(discordServers).where(eq(discordServers.category, 'Gaming'));
    expect(Math.max(...gaming.map((g) => g.rank_score))).toBe(busy!.rank_score);

    // Its own page is recorded in the approval's batch; the pages whose place it moved are known once
    // it is ranked, after that batch, and asked for then.
    expect(h.rebuild.reasons).toEqual(['approved busy-arena', 'approved busy-arena']);
    expect(h.rebuild.pages[0]).toEqual(['/server/busy-arena']);
    expect([...h.rebuild.pages[1]!].sort()).toEqual(['/server/calm-guild', '/server/quiet-guild']);
  });
});
