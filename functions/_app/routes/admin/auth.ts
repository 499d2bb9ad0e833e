import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  getOperatorByEmail,
  recordSuccessfulLogin,
  setOperatorPasswordHash,
  toPublicOperator,
} from '../../../../db/queries/operators';
import { createSession, deleteSession } from '../../../../db/queries/sessions';
import { beginSignInAttempt, clearSignInFailures, forgetSignInAttempt } from '../../../../db/queries/sign-in-failures';
import { hmac } from '../../../../src/lib/hash';
import { DUMMY_HASH_PROMISE, hashPassword, needsRehash, verifyPassword } from '../../../../src/lib/password';
import { loginSchema } from '../../../../src/lib/schemas/admin';
import { SIGN_IN_THROTTLE, signInWaitMs } from '../../../../src/lib/sign-in-throttle';
import { run as sweepSessions } from '../../jobs/session-sweep';
import { ApiError } from '../../lib/errors';
import { clearSessionCookie, sessionCookieName, setSessionCookie } from '../../lib/operator-session';
import { validationHook } from '../../lib/validate';
import type { AdminEnv } from '../../middleware/auth';
import { audit } from './shared';

const tooMany = (waitMs: number) =>
  new ApiError(429, 'too_many_attempts', 'Too many sign-in attempts. Try again later.', undefined, {
    'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))),
  });

const wrongCredentials = () => new ApiError(401, 'invalid_credentials', 'Wrong email or password');

/** Sign-in, sign-out and "who am I" of the console. */
export const authRoutes = new Hono<AdminEnv>()
  .post('/login', zValidator('json', loginSchema, validationHook), async (c) => {
    const deps = c.get('deps');
    const { email, password } = c.req.valid('json');
    const now = deps.now?.() ?? Date.now();
    // Keyed by address and (email, address) only, never by account: failures elsewhere cannot
    // lock an operator out, and whether the email names an operator changes nothing below
    // until the password is checked, so both answer alike in every state.
    const key = {
      ipHash: c.get('ipHash'),
      emailHash: await hmac(deps.env.IP_HASH_SECRET, `email:${email.trim().toLowerCase()}`),
    };
    const attempt = await beginSignInAttempt(
      deps.db,
      key,
      new Date(now).toISOString(),
      new Date(now - SIGN_IN_THROTTLE.windowMs).toISOString(),
    );
    const waitMs = signInWaitMs(attempt.history, now);
    if (waitMs > 0) {
      // Refused unchecked, so it is no failure: retrying early does not lengthen the wait.
      await forgetSignInAttempt(deps.db, attempt.id);
      throw tooMany(waitMs);
    }
    const op = await getOperatorByEmail(deps.db, email);
    // An unknown email still pays for a hash check, so response time does not reveal which emails exist.
    const passwordOk = await verifyPassword(password, op?.password_hash ?? (await DUMMY_HASH_PROMISE()));
    // The attempt's row stays: it is now a failure.
    if (!op || !passwordOk) throw wrongCredentials();
    await clearSignInFailures(deps.db, key);
    await recordSuccessfulLogin(deps.db, op.id, now);
    if (needsRehash(op.password_hash)) await setOperatorPasswordHash(deps.db, op.id, await hashPassword(password));
    // Each sign-in also sweeps the sessions that expired meanwhile (jobs/session-sweep.ts).
    const [session] = await Promise.all([createSession(deps.db, op.id, now), sweepSessions(deps, now)]);
    setSessionCookie(c, deps.env.SITE_URL, session.token);
    const operator = toPublicOperator(op);
    c.set('operator', operator);
    await audit(c, 'login', 'operator', op.id);
    c.header('Cache-Control', 'no-store');
    return c.json({ operator, csrfToken: session.csrfToken });
  })
  .post('/logout', async (c) => {
    const deps = c.get('deps');
    const token = getCookie(c, sessionCookieName(deps.env.SITE_URL));
    if (token) await deleteSession(deps.db, token);
    clearSessionCookie(c, deps.env.SITE_URL);
    await audit(c, 'logout', 'operator', c.get('operator').id);
    return c.json({ ok: true });
  })
  .get('/me', (c) => c.json({ operator: c.get('operator'), csrfToken: c.get('csrfToken') }));
