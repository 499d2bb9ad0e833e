// Owner sign-in's edges (#17): its start and Discord's redirect back share a rate limit (429 in the
// JSON envelope), and a site without a Discord application answers the no-JavaScript sign-in link
// with a readable page instead of a silent trip back to /account.
import { HtmlValidate } from 'html-validate';
import { afterEach, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../functions/_app/lib/rate-limits';
import { SIGN_IN_NOT_CONFIGURED } from '../../src/lib/owners/sign-in';
import { createOwnerHarness, SITE } from './owner-harness';

let h: Awaited<ReturnType<typeof createOwnerHarness>> | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** The error envelope of a 429, and its Retry-After. */
async function refusal(res: Response) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  return (await res.json()) as { error: { code: string; message: string } };
}

describe('owner sign-in rate limit', () => {
  it('the sign-in start answers 429 in the JSON envelope once a client is past the limit', async () => {
    h = await createOwnerHarness({ RATE_LIMITS: 'true' });
    const { limit } = RATE_LIMITS.ownerSignIn;
    for (let i = 0; i < limit; i++) expect((await h.app.request(`${SITE}/api/account/sign-in`)).status).toBe(302);
    const body = await refusal(await h.app.request(`${SITE}/api/account/sign-in`));
    expect(body).toEqual({
      error: { code: 'rate_limited', message: 'Too many requests. Please wait a moment and try again.' },
    });
    // Nothing was started at Discord for the refused one: no state cookie.
    const refused = await h.app.request(`${SITE}/api/account/sign-in`);
    expect(refused.headers.getSetCookie()).toEqual([]);
  });

  it("Discord's redirect back counts against the same limit, and is refused before any token request", async () => {
    h = await createOwnerHarness({ RATE_LIMITS: 'true' });
    const { limit } = RATE_LIMITS.ownerSignIn;
    // A real round trip first: start, Discord's authorize, then the callback.
    const { authorize, stateCookie } = await h.start();
    const back = await h.authorize(authorize);
    for (let i = 1; i < limit; i++)
      expect((await h.app.request(`${SITE}/api/account/callback?code=x&state=y`)).status).toBe(303);
    const body = await refusal(await h.callback(back, stateCookie?.pair));
    expect(body.error.code).toBe('rate_limited');
    expect(h.discord.oauth.tokenRequests).toHaveLength(0);
  });

  it('counts each client apart: another address still signs in', async () => {
    h = await createOwnerHarness({ RATE_LIMITS: 'true' });
    const from = (ip: string) => h!.app.request(`${SITE}/api/account/sign-in`, { headers: { 'cf-connecting-ip': ip } });
    for (let i = 0; i < RATE_LIMITS.ownerSignIn.limit; i++) await from('203.0.113.1');
    expect((await from('203.0.113.1')).status).toBe(429);
    expect((await from('198.51.100.7')).status).toBe(302);
  });
});

describe('sign-in without a Discord application', () => {
  it('the no-JavaScript sign-in link and the callback answer a valid page that says sign-in is not configured', async () => {
    h = await createOwnerHarness({ DISCORD_CLIENT_ID: '', DISCORD_CLIENT_SECRET: '' });
    for (const path of ['/api/account/sign-in', '/api/account/callback?code=x&state=y']) {
      const res = await h.app.request(`${SITE}${path}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toContain('<title>Sign-in is not available | GuildRank</title>');
      expect(html).toContain(`<p>${SIGN_IN_NOT_CONFIGURED} Owners cannot sign in here`);
      expect(html).toContain('<a href="/account">Back to My listings</a>');
      // The recommended rules; the doctype's case is a style rule (both are valid HTML).
      const validator = new HtmlValidate({ extends: ['html-validate:recommended'], rules: { 'doctype-style': 'off' } });
      const report = await validator.validateString(html);
      expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`))).toEqual([]);
    }
  });
});
