import { describe, expect, it } from 'vitest';
import { createRenderGate, PER_CLIENT_IN_FLIGHT, RenderRefused } from './render-gate';

/** A render that finishes when told to. */
function pending() {
  let done!: () => void;
  const promise = new Promise<string>((ok) => {
    done = () => ok('page');
  });
  return { render: () => promise, done };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof RenderRefused ? e.status : e),
  );

describe('the render gate', () => {
  it('one client flooding holds at most its own slots; another client renders at once', async () => {
    const gate = createRenderGate({ concurrent: 4, queue: 8 });
    const slow = pending();
    const flood = Array.from({ length: 16 }, () => refusal(gate.run('flooder', slow.render)));
    const other = await gate.run('reader', async () => 'other page');
    expect(other).toBe('other page');
    slow.done();
    const outcomes = await Promise.all(flood);
    expect(outcomes.filter((o) => o === null)).toHaveLength(PER_CLIENT_IN_FLIGHT);
    expect(outcomes.filter((o) => o === 429)).toHaveLength(16 - PER_CLIENT_IN_FLIGHT);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('past the queue depth the answer is 503; the queue drains in order', async () => {
    const gate = createRenderGate({ concurrent: 1, queue: 2 });
    const slow = pending();
    const runs = ['a', 'b', 'c'].map((client) => gate.run(client, slow.render));
    await new Promise((ok) => setTimeout(ok, 0));
    expect(gate.load()).toEqual({ running: 1, waiting: 2 });
    expect(await refusal(gate.run('d', slow.render))).toBe(503);
    slow.done();
    expect(await Promise.all(runs)).toEqual(['page', 'page', 'page']);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it("a client past its rate is refused 429 by the client's count", async () => {
    let count = 0;
    const gate = createRenderGate({
      countClient: () => {
        if (++count > 2) throw new RenderRefused(429, 60);
      },
    });
    await gate.run('x', async () => 1);
    await gate.run('x', async () => 2);
    expect(await refusal(gate.run('x', async () => 3))).toBe(429);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });
});
