// Owners' Discord webhook notices (#32): only Discord's own URLs are saved, after a test message;
// events are delivered through the webhook outbox by the sender job, with the mail's retries after
// a 500, and a webhook Discord answers 404 for is switched off and its owner mailed. Discord's
// webhooks are a loopback stand-in behind DISCORD_WEBHOOK_BASE.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS, listMails, RETRY_DELAYS_MS } from '../../db/queries/mail';
import { notifyOwner } from '../../db/queries/webhooks';
import { ownerUsers, webhookOutbox } from '../../db/schema';
import { run as sendWebhooks } from '../../functions/_app/jobs/webhook-sender';
import { type DiscordWebhookStandIn, startDiscordWebhookStandIn } from '../helpers/discord-webhook-stand-in';
import { validSubmission } from './api-harness';
import { createOwnerHarness, guild, SITE } from './owner-harness';

const HOOK_ID = '123456789012345678';
const TOKEN = 'tOkEn_-'.repeat(10);
const HOOK = `https://discord.com/api/webhooks/${HOOK_ID}/${TOKEN}`;

let hooks: DiscordWebhookStandIn;
let h: Awaited<ReturnType<typeof createOwnerHarness>> | undefined;
beforeAll(async () => {
  hooks = await startDiscordWebhookStandIn();
});
afterAll(() => hooks.close());
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
  hooks.posts.length = 0;
  hooks.answers.clear();
});

async function ownerWithWebhook() {
  h = await createOwnerHarness({ DISCORD_WEBHOOK_BASE: hooks.url });
  const owner = await h.signInOwner([guild('900000000000000001', { owner: true })]);
  return { harness: h, owner };
}

describe('an owner’s Discord webhook', () => {
  it('saves only Discord’s own webhook URLs, after a test message Discord took', async () => {
    const { harness, owner } = await ownerWithWebhook();
    for (const url of [
      'https://evil.example/api/webhooks/1/2',
      `http://discord.com/api/webhooks/${HOOK_ID}/${TOKEN}`,
    ]) {
      const res = await harness.ownerCall(owner, 'PUT', '/api/account/webhook', { webhook_url: url });
      expect(res.status, url).toBe(400);
    }
    expect(hooks.posts).toEqual([]);
    hooks.answers.set(HOOK_ID, [404]);
    const unknown = await harness.ownerCall(owner, 'PUT', '/api/account/webhook', { webhook_url: HOOK });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('webhook_unknown');
    const saved = await harness.ownerCall(owner, 'PUT', '/api/account/webhook', {
      webhook_url: HOOK.replace('https://discord.com', 'https://canary.discordapp.com'),
    });
    expect(saved.status).toBe(200);
    expect(hooks.posts.at(-1)).toMatchObject({ id: HOOK_ID, token: TOKEN, query: '?wait=true' });
    expect(hooks.posts.at(-1)?.body.content).toMatch(/now gets GuildRank notices/);
    const shown = (await (await harness.ownerCall(owner, 'GET', '/api/account/webhook')).json()) as {
      webhook: { url: string };
    };
    expect(shown.webhook.url).not.toContain(TOKEN);
  });

  it('delivers a rejection notice through the outbox, retrying after a 500, and switches off after a 404, mailing the owner', async () => {
    const { harness, owner } = await ownerWithWebhook();
    expect((await harness.ownerCall(owner, 'PUT', '/api/account/webhook', { webhook_url: HOOK })).status).toBe(200);
    hooks.posts.length = 0;
    // The owner submits a server; a moderator rejects it.
    harness.discord.invites.set('ownedguild', {
      guild: { id: '900000000000000001', name: 'Owned Guild' },
      memberCount: 300,
      onlineCount: 20,
    });
    const submitted = await harness.app.request(`${SITE}/api/submissions`, {
      method: 'POST',
      headers: { cookie: owner.cookie, origin: SITE, 'content-type': 'application/json' },
      body: JSON.stringify(validSubmission({ invite_link: 'https://discord.gg/ownedguild' })),
    });
    expect(submitted.status).toBe(201);
    const { submission } = (await submitted.json()) as { submission: { id: number } };
    const mod = await harness.signIn('moderator');
    await harness.call(mod, 'PATCH', `/api/admin/submissions/${submission.id}`, {
      status: 'rejected',
      reasons: ['misleading'],
    });
    const [queued] = await harness.db.select().from(webhookOutbox);
    expect(queued).toMatchObject({ event: 'rejected', status: 'pending', attempts: 0 });

    // Discord answers 500: the notice waits the mail's first back-off, then goes.
    hooks.answers.set(HOOK_ID, [500]);
    const deps = { db: harness.db, env: harness.env };
    const t0 = Date.now();
    expect(await sendWebhooks(deps, t0)).toMatchObject({ claimed: 1, retried: 1, sent: 0 });
    const [waiting] = await harness.db.select().from(webhookOutbox);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, last_error: 'Discord answered 500' });
    expect(await sendWebhooks(deps, t0 + 1000)).toMatchObject({ claimed: 0 });
    expect(await sendWebhooks(deps, t0 + RETRY_DELAYS_MS[0] + 1)).toMatchObject({ claimed: 1, sent: 1 });
    expect(hooks.posts.map((p) => p.body.content)).toEqual([
      expect.stringMatching(/was not approved\. Reasons: Misleading description/),
      expect.stringMatching(/was not approved/),
    ]);

    // The webhook is deleted in Discord: a 404 switches it off, gives up what waits, mails the owner.
    hooks.answers.set(HOOK_ID, [404]);
    const [ownerRow] = await harness.db.select().from(ownerUsers);
    await notifyOwner(harness.db, { ownerId: ownerRow!.id }, { kind: 'test' }, 'one');
    await notifyOwner(harness.db, { ownerId: ownerRow!.id }, { kind: 'test' }, 'two');
    expect(await sendWebhooks(deps, t0 + 10 * RETRY_DELAYS_MS[0])).toMatchObject({ claimed: 2, disabled: 1, sent: 0 });
    const [off] = await harness.db.select().from(ownerUsers).where(eq(ownerUsers.id, ownerRow!.id));
    expect(off!.webhook_disabled_at).not.toBeNull();
    expect((await harness.db.select().from(webhookOutbox)).filter((r) => r.status === 'pending')).toEqual([]);
    const mails = (await listMails(harness.db, { kind: 'webhook_disabled' })).mails;
    expect(mails.map((m) => m.to_address)).toEqual(['owner@example.com']);
    // Nothing more is written for a webhook that is off.
    await notifyOwner(harness.db, { ownerId: ownerRow!.id }, { kind: 'test' }, 'three');
    expect((await harness.db.select().from(webhookOutbox)).filter((r) => r.status === 'pending')).toEqual([]);
  });

  it('a slow pass posts nothing after its claim could have run out: the rest go back for the next pass, each message once', async () => {
    const { harness, owner } = await ownerWithWebhook();
    expect((await harness.ownerCall(owner, 'PUT', '/api/account/webhook', { webhook_url: HOOK })).status).toBe(200);
    hooks.posts.length = 0;
    const [ownerRow] = await harness.db.select().from(ownerUsers);
    for (let i = 0; i < 5; i++) await notifyOwner(harness.db, { ownerId: ownerRow!.id }, { kind: 'test' }, `slow-${i}`);
    // Each post takes Discord 2 minutes (a clock the test moves): five outlast the claim's 5 minutes.
    let clock = Date.now() + 1000;
    const t0 = clock;
    const postedAt: number[] = [];
    const slow: typeof fetch = async (url, init) => {
      postedAt.push(clock);
      clock += 2 * 60_000;
      return fetch(url, init);
    };
    const deps = { db: harness.db, env: harness.env, fetch: slow };
    const first = await sendWebhooks(deps, t0, { clock: () => clock });
    expect(postedAt.every((at) => at < t0 + CLAIM_LEASE_MS)).toBe(true);
    expect(first.sent).toBeLessThan(5);
    for (let pass = 0; pass < 5; pass++)
      if ((await sendWebhooks(deps, clock, { clock: () => clock })).claimed === 0) break;
    expect(hooks.posts).toHaveLength(5);
    expect((await harness.db.select().from(webhookOutbox)).map((r) => r.status)).toEqual(Array(5).fill('sent'));
  });
});
