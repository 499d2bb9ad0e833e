import { describe, expect, it } from 'vitest';
import { HookRebuildTrigger } from './rebuild-hook';

/** A fetch that records calls and answers with the given status once released. */
function fakeHook(status = 200) {
  const calls: { url: string; body: string }[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const fetchImpl = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), body: String(init?.body) });
    await gate;
    return new Response(null, { status, statusText: status === 200 ? 'OK' : 'Bad Gateway' });
  }) as typeof fetch;
  return { calls, release, fetchImpl };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
};

/** A trigger posting to the fake hook after `debounceMs`. */
const triggerOn = (hook: ReturnType<typeof fakeHook>, debounceMs: number) =>
  new HookRebuildTrigger({ url: 'https://hooks.example/deploy', fetch: hook.fetchImpl, debounceMs });

describe('HookRebuildTrigger', () => {
  it('a burst of requests gives one POST to the hook, reporting queued, building, then idle', async () => {
    const hook = fakeHook();
    const trigger = triggerOn(hook, 20);
    trigger.request('approved a');
    trigger.request('approved b');
    trigger.request('edited c');
    expect(trigger.status().state).toBe('queued');
    await until(() => hook.calls.length === 1);
    expect(trigger.status().state).toBe('building');
    hook.release();
    await until(() => trigger.status().state === 'idle');
    expect(hook.calls).toHaveLength(1);
    expect(hook.calls[0]!.url).toBe('https://hooks.example/deploy');
    expect(JSON.parse(hook.calls[0]!.body)).toEqual({ reason: 'approved a, approved b, edited c' });
    expect(trigger.status().lastError).toBeNull();
  });

  it('a failing hook leaves the state failed with the error', async () => {
    const hook = fakeHook(502);
    hook.release();
    const trigger = triggerOn(hook, 1);
    trigger.request('approved a');
    await trigger.flush();
    expect(trigger.status()).toMatchObject({ state: 'failed', lastError: 'Deploy hook answered 502 Bad Gateway' });
  });

  it('a request during a POST gets exactly one more POST', async () => {
    const hook = fakeHook();
    const trigger = triggerOn(hook, 60_000);
    trigger.request('first');
    const done = trigger.flush();
    await until(() => hook.calls.length === 1);
    trigger.request('second');
    trigger.request('third');
    hook.release();
    await done;
    await trigger.flush();
    expect(hook.calls.map((c) => JSON.parse(c.body).reason)).toEqual(['first', 'second, third']);
    expect(trigger.status().state).toBe('idle');
  });
});
