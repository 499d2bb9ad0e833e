// The XSS corpus (#12) through member reviews (#31) where no browser is needed: every payload as a
// review's text, a display name and a reply goes through the API, comes back byte for byte as JSON
// text (never markup, the page's script sets it as text), and every review mail's HTML part
// carries it escaped: no tag or attribute of it survives.
import { afterEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema';
import { escapeHtml } from '../../functions/_app/lib/html';
import { reviewHiddenMail, reviewNewMail, reviewReplyMail } from '../../functions/_app/mail/reviews';
import { DISCORD_EPOCH_MS } from '../../src/lib/reviews/eligibility';
import { PAYLOADS } from '../e2e/xss-payloads';
import { seedServer } from './api-harness';
import { cookiesOf, createOwnerHarness, guild, SITE } from './owner-harness';

const DAY = 86_400_000;
const GUILD = '222000000000000009';
const site = { name: 'GuildRank', url: 'https://guildrank.example', supportEmail: 'support@guildrank.example' };

let h: Awaited<ReturnType<typeof createOwnerHarness>> | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** A payload long enough for a review (20 characters at least). */
const asReview = (text: string) => (text.length >= 20 ? text : `${text} ${'·'.repeat(20 - text.length)}`);

/** What markup of a payload would leave in an HTML part if it were not escaped. */
const markupOf = (text: string) => /<[a-z!/]/i.test(text);

describe('review mails escape every payload', () => {
  for (const p of PAYLOADS) {
    it(`#${p.n} ${p.kind}`, () => {
      const mails = [
        reviewNewMail(site, {
          serverName: p.text,
          serverUrl: `${site.url}/server/x`,
          reviewer: p.text,
          rating: 3,
          body: p.text,
        }),
        reviewReplyMail(site, { serverName: p.text, serverUrl: `${site.url}/server/x`, reply: p.text }),
        reviewHiddenMail(site, { serverName: p.text, serverUrl: `${site.url}/server/x`, reason: p.text }),
      ];
      for (const mail of mails) {
        expect(mail.html).toContain(escapeHtml(p.text));
        if (markupOf(p.text)) expect(mail.html).not.toContain(p.text);
        expect(mail.html).not.toMatch(/<[a-z][^>]*id=["']?xss\d/i);
        expect(mail.text).toContain(p.text);
      }
    });
  }
});

describe('the public reviews JSON gives every payload back as text', () => {
  it('review texts, display names and replies, through the API', async () => {
    // Every payload is a new review of one listing today: no burst hold here (the burst rule has its own test).
    h = await createOwnerHarness({ REVIEW_BURST_LIMIT: '1000' });
    const server = await seedServer(h.db, { name: 'Payload Review Guild', guild_id: GUILD });
    const owner = await h.signInOwner([guild(GUILD, { owner: true })]);
    const names = PAYLOADS.map((p) => p.text).filter((t) => t.length <= 80);
    for (const [i, p] of PAYLOADS.entries()) {
      h.discord.oauth.user = {
        id: ((BigInt(Date.now() - 400 * DAY - DISCORD_EPOCH_MS) << 22n) | BigInt(i + 1)).toString(),
        username: `payload${i}`,
        global_name: null,
        avatar: null,
      };
      h.discord.oauth.guilds = [{ ...guild(GUILD), joined_at: new Date(Date.now() - 30 * DAY).toISOString() }];
      const start = await h.app.request(`${SITE}/api/account/sign-in?review=${server.slug}`);
      const stateCookie = [...cookiesOf(start).values()].find((c) => c.pair.includes('gr_owner_oauth'));
      const done = await h.callback(await h.authorize(new URL(start.headers.get('location')!)), stateCookie?.pair);
      const cookie = cookiesOf(done).get('gr_owner')!.pair;
      const me = (await (await h.app.request(`${SITE}/api/account/me`, { headers: { cookie } })).json()) as {
        csrfToken: string;
      };
      const session = { cookie, csrf: me.csrfToken };
      const res = await h.ownerCall(session, 'POST', `/api/reviews/servers/${server.id}`, {
        rating: 3,
        body: asReview(p.text),
        display_name: names[i % names.length],
      });
      expect(res.status, `#${p.n}`).toBe(201);
      const { review } = (await res.json()) as { review: { id: number } };
      expect(
        (await h.ownerCall(owner, 'PUT', `/api/reviews/${review.id}/reply`, { body: asReview(p.text) })).status,
      ).toBe(201);
    }
    const seen = new Map<string, { body: string | null; display_name: string; reply: { body: string } | null }>();
    for (let page = 1; page <= Math.ceil(PAYLOADS.length / 10); page++) {
      const res = await h.app.request(`${SITE}/api/reviews/servers/${server.id}?page=${page}`);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as {
        reviews: { body: string | null; display_name: string; reply: { body: string } | null }[];
      };
      for (const r of body.reviews) seen.set(r.body ?? '', r);
    }
    for (const p of PAYLOADS) {
      const r = seen.get(asReview(p.text).trim());
      expect(r, `#${p.n}`).toBeDefined();
      expect(r!.reply?.body).toBe(asReview(p.text).trim());
    }
    expect(new Set([...seen.values()].map((r) => r.display_name))).toEqual(
      new Set(names.slice(0, PAYLOADS.length).map((n) => n.trim())),
    );
    // The owner's new-review mails were not written (no address given); the outbox holds none with markup either way.
    expect(await h.db.select().from(mailOutbox)).toHaveLength(0);
    // The whole corpus (three writes per payload) in one test: more than a request-sized test's 30 s on a busy machine.
  }, 90_000);
});
