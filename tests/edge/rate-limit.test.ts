// The public rate limits on Cloudflare: the Worker in workerd (wrangler dev, with wrangler.toml's
// own [[ratelimits]] entries, which miniflare simulates) refuses through the binding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeRateLimit, RATE_LIMITS } from '../../functions/_app/lib/rate-limits';
import { declaredRateLimits, rateLimitsToml } from '../helpers/wrangler-config';
import { type EdgeStack, startEdgeStack, type WranglerDev } from '../helpers/wrangler-dev';

let worker: WranglerDev;
let stack: EdgeStack | undefined;

beforeAll(async () => {
  stack = await startEdgeStack({
    assets: { 'index.html': '<!doctype html><title>GuildRank</title><h1>Home</h1>' },
    // The production entries, exactly as wrangler.toml declares them.
    extraConfig: rateLimitsToml(await declaredRateLimits()),
  });
  ({ worker } = stack);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

/** A contact form post that fails validation (400): it is counted before it is read, and stores nothing. */
const emptyContact = (ip: string) =>
  fetch(`${worker.url}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: worker.url, 'cf-connecting-ip': ip },
    body: '{}',
  });

const minute = () => Math.floor(Date.now() / 60_000);

describe('rate limits in workerd', () => {
  it('answers 429 from the binding after the configured number of requests, per client', async () => {
    const { limit, period } = edgeRateLimit(RATE_LIMITS.contact);
    // The simulated binding counts in windows aligned to the clock's minutes: a run that straddles
    // a minute's end starts over from a fresh address instead of guessing at the split.
    for (let round = 1; round <= 3; round++) {
      const ip = `192.0.2.${round}`;
      const started = minute();
      const answers: Response[] = [];
      for (let i = 0; i <= limit; i++) answers.push(await emptyContact(ip));
      if (minute() !== started) continue;

      expect(answers.map((r) => r.status)).toEqual([...Array(limit).fill(400), 429]);
      const refused = answers.at(-1)!;
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
      // The binding gives no reset time, so the wait is its whole period (the per-isolate memory
      // store would count the rule's own 10-minute window instead).
      expect(refused.headers.get('retry-after')).toBe(String(period));
      // Another client is counted apart.
      expect((await emptyContact(`198.51.100.${round}`)).status).toBe(400);
      return;
    }
    throw new Error('every round straddled a minute boundary');
  });
});
