// The session sweep (functions/_app/jobs/session-sweep.ts) takes expired owner sessions (#17) too:
// on the app's clock, one pass deletes exactly the owner sessions the owner middleware would refuse
// (a day idle, or a week old), beside the console's, and nothing else.
import { afterEach, describe, expect, it } from 'vitest';
import { OWNER_SESSION_ABSOLUTE_MS, OWNER_SESSION_IDLE_MS } from '../../db/queries/owners';
import { SESSION_IDLE_MS } from '../../db/queries/sessions';
import { ownerSessions, sessions } from '../../db/schema';
import { run } from '../../functions/_app/jobs/session-sweep';
import { createOwnerHarness } from './owner-harness';

const T0 = Date.parse('2030-05-01T08:00:00.000Z');
const MINUTE = 60_000;

let h: Awaited<ReturnType<typeof createOwnerHarness>> | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

/** A harness on a clock the test moves. */
async function onClock() {
  const clock = { t: T0 };
  h = await createOwnerHarness({}, { now: () => clock.t });
  return { harness: h, clock };
}

const user = (n: number) => ({ id: `7000000000000000${n}`, username: `owner-${n}` });

describe('the session sweep and owner sessions', () => {
  it('deletes owner sessions idle a day, keeps the one still in use, and then the week-old one', async () => {
    const { harness, clock } = await onClock();
    const kept = await harness.signInOwner([], user(1));
    const idle = await harness.signInOwner([], user(2));
    await harness.signInOwner([], user(3));
    expect(await harness.db.select().from(ownerSessions)).toHaveLength(3);

    // One owner comes back just before a day is up; the other two never do.
    clock.t = T0 + OWNER_SESSION_IDLE_MS - MINUTE;
    expect((await harness.ownerCall(kept, 'GET', '/api/account/listings')).status).toBe(200);
    clock.t = T0 + OWNER_SESSION_IDLE_MS;
    expect(await run({ db: harness.db }, clock.t)).toBe(2);
    expect(await harness.db.select().from(ownerSessions)).toHaveLength(1);
    expect((await harness.ownerCall(kept, 'GET', '/api/account/listings')).status).toBe(200);
    expect((await harness.ownerCall(idle, 'GET', '/api/account/listings')).status).toBe(401);
    // A second pass finds nothing left to do.
    expect(await run({ db: harness.db }, clock.t)).toBe(0);

    // Used every half day, the session still ends a week after its sign-in, and the sweep takes it then.
    while (clock.t + OWNER_SESSION_IDLE_MS / 2 < T0 + OWNER_SESSION_ABSOLUTE_MS) {
      clock.t += OWNER_SESSION_IDLE_MS / 2;
      expect((await harness.ownerCall(kept, 'GET', '/api/account/listings')).status).toBe(200);
    }
    expect(await run({ db: harness.db }, T0 + OWNER_SESSION_ABSOLUTE_MS - 1)).toBe(0);
    expect(await run({ db: harness.db }, T0 + OWNER_SESSION_ABSOLUTE_MS)).toBe(1);
    expect(await harness.db.select().from(ownerSessions)).toHaveLength(0);
  });

  it("one pass sweeps the console's and the owners' expired sessions, and counts both", async () => {
    const { harness, clock } = await onClock();
    await harness.signIn('moderator');
    await harness.signInOwner([], user(4));
    expect(await harness.db.select().from(sessions)).toHaveLength(1);

    // Half an hour idle ends the console session; the owner's lasts a day.
    clock.t = T0 + SESSION_IDLE_MS;
    expect(await run({ db: harness.db }, clock.t)).toBe(1);
    expect(await harness.db.select().from(sessions)).toHaveLength(0);
    expect(await harness.db.select().from(ownerSessions)).toHaveLength(1);
    clock.t = T0 + OWNER_SESSION_IDLE_MS;
    expect(await run({ db: harness.db }, clock.t)).toBe(1);
    expect(await harness.db.select().from(ownerSessions)).toHaveLength(0);
  });
});
