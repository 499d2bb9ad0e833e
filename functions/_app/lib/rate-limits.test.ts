import { describe, expect, it } from 'vitest';
import { BindingRateLimitStore, MemoryRateLimitStore, RATE_LIMITS, type RateLimitRule } from './rate-limits';

const rule = (limit: number, windowMs: number): RateLimitRule => ({ name: 'r', limit, windowMs, namespaceId: 1 });

describe('MemoryRateLimitStore', () => {
  it('counts hits per key within a window, refuses past the limit and starts over when it ends', () => {
    let now = 1_000;
    const store = new MemoryRateLimitStore(() => now);
    const r = rule(2, 60_000);
    expect(store.hit(r, 'a')).toEqual({ ok: true, resetAt: 61_000, remaining: 1 });
    expect(store.hit(r, 'a').ok).toBe(true);
    expect(store.hit(r, 'a')).toEqual({ ok: false, resetAt: 61_000, remaining: 0 });
    expect(store.hit(r, 'b').ok).toBe(true);
    now = 61_000;
    expect(store.hit(r, 'a')).toEqual({ ok: true, resetAt: 121_000, remaining: 1 });
  });

  it('keeps separate counts per rule for the same address', () => {
    const store = new MemoryRateLimitStore(() => 0);
    const one = { ...rule(1, 1000), name: 'one' };
    const two = { ...rule(1, 1000), name: 'two' };
    expect(store.hit(one, 'a').ok).toBe(true);
    expect(store.hit(two, 'a').ok).toBe(true);
    expect(store.hit(one, 'a').ok).toBe(false);
  });

  it('filling it with distinct addresses never resets an address that is over its limit', () => {
    const store = new MemoryRateLimitStore(() => 0, 100);
    const r = rule(3, 60_000);
    for (let i = 0; i < 4; i++) store.hit(r, 'abuser');
    expect(store.hit(r, 'abuser').ok).toBe(false);
    for (let i = 0; i < 10_000; i++) store.hit(r, `visitor-${i}`);
    expect(store.size).toBeLessThanOrEqual(100);
    expect(store.hit(r, 'abuser').ok).toBe(false);
  });

  it('frees expired windows first, then the oldest, and stays within its bound', () => {
    let now = 0;
    const store = new MemoryRateLimitStore(() => now, 10);
    const short = rule(5, 1000);
    const long = rule(5, 60_000);
    for (let i = 0; i < 5; i++) store.hit(long, `old-live-${i}`);
    for (let i = 0; i < 5; i++) store.hit(short, `expiring-${i}`);
    now = 2000;
    store.hit(long, 'new');
    // The five expired windows went; every live one is still counting.
    expect(store.size).toBe(6);
    expect(store.hit(long, 'old-live-0')).toEqual({ ok: true, resetAt: 60_000, remaining: 3 });
    for (let i = 0; i < 50; i++) store.hit(long, `more-${i}`);
    expect(store.size).toBeLessThanOrEqual(10);
    // The newest window survived the evictions with its count; the oldest one starts over.
    expect(store.hit({ ...long, limit: 2 }, 'more-49').ok).toBe(true);
    expect(store.hit({ ...long, limit: 2 }, 'more-49').ok).toBe(false);
    expect(store.hit({ ...long, limit: 1 }, 'old-live-0').ok).toBe(true);
  });

  it('when every window is at its limit, the oldest go so memory stays bounded', () => {
    const store = new MemoryRateLimitStore(() => 0, 10);
    const r = rule(1, 60_000);
    for (let i = 0; i < 30; i++) store.hit(r, `k${i}`);
    expect(store.size).toBeLessThanOrEqual(10);
    expect(store.hit(r, 'k29').ok).toBe(false);
  });
});

describe('BindingRateLimitStore', () => {
  it("asks the rule's binding with the client's key and refuses with the period as the wait", async () => {
    const calls: string[] = [];
    const store = new BindingRateLimitStore(
      {
        RATE_LIMIT_CONTACT: {
          limit: async ({ key }: { key: string }) => {
            calls.push(key);
            return { success: calls.length <= 1 };
          },
        },
      },
      () => 5000,
    );
    expect(await store.hit(RATE_LIMITS.contact, 'hash-a')).toEqual({ ok: true, resetAt: 65_000 });
    expect(await store.hit(RATE_LIMITS.contact, 'hash-a')).toEqual({ ok: false, resetAt: 65_000 });
    expect(calls).toEqual(['hash-a', 'hash-a']);
  });

  it('counts a rule without a binding in memory and names the missing bindings', () => {
    const store = new BindingRateLimitStore({ RATE_LIMIT_CONTACT: { limit: async () => ({ success: true }) } });
    expect(store.missing).toContain('RATE_LIMIT_GO');
    expect(store.missing).not.toContain('RATE_LIMIT_CONTACT');
    const go = RATE_LIMITS.go;
    for (let i = 0; i < go.limit; i++) expect(store.hit(go, 'a')).toMatchObject({ ok: true });
    expect(store.hit(go, 'a')).toMatchObject({ ok: false });
  });
});
