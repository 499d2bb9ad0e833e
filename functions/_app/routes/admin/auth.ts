import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { recordAudit } from '../../../../db/queries/audit';
import {
  getOperatorByEmail,
  lockoutRemainingMs,
  recordFailedLogin,
  recordSuccessfulLogin,
  setOperatorPasswordHash,
  toPublicOperator,
} from '../../../../db/queries/operators';
import { createSession, deleteSession } from '../../../../db/queries/sessions';
import { loginSchema } from '../../../../src/lib/schemas/admin';
import { ApiError } from '../../lib/errors';
import { DUMMY_HASH_PROMISE, hashPassword, needsRehash, verifyPassword } from '../../lib/password';
import { type AdminEnv, clearSessionCookie, sessionCookieName, setSessionCookie } from '../../middleware/auth';
import { rateLimit } from '../../middleware/rate-limit';
import { audit, parseBody } from './shared';

/** Sign-in attempts one client (hashed IP) may make per window, whatever the account. */
const LOGIN_RATE_LIMIT = { name: 'admin-login', limit: 20, windowMs: 15 * 60 * 1000 } as const;

const tooMany = (seconds: number) =>
  new ApiError(429, 'too_many_attempts', 'Too many sign-in attempts. Try again later.', undefined, {
    'Retry-After': String(Math.max(1, seconds)),
  });

const wrongCredentials = () => new ApiError(401, 'invalid_credentials', 'Wrong email or password');

/** Sign-in, sign-out and "who am I" of the console. */
export const authRoutes = new Hono<AdminEnv>()
  .post('/login', rateLimit(LOGIN_RATE_LIMIT), async (c) => {
    const deps = c.get('deps');
    const { email, password } = await parseBody(c, loginSchema);
    const op = await getOperatorByEmail(deps.db, email);
    if (!op) {
      // Same work as a real check, so response time does not reveal which emails exist.
      await verifyPassword(password, await DUMMY_HASH_PROMISE());
      throw wrongCredentials();
    }
    const locked = lockoutRemainingMs(op);
    if (locked > 0) throw tooMany(Math.ceil(locked / 1000));
    if (!(await verifyPassword(password, op.password_hash))) {
      const until = await recordFailedLogin(deps.db, op.id);
      if (until) {
        await recordAudit(deps.db, op, { action: 'lockout', entity: 'operator', entityId: op.id });
        throw tooMany(Math.ceil((Date.parse(until) - Date.now()) / 1000));
      }
      throw wrongCredentials();
    }
    await recordSuccessfulLogin(deps.db, op.id);
    if (needsRehash(op.password_hash)) await setOperatorPasswordHash(deps.db, op.id, await hashPassword(password));
    const session = await createSession(deps.db, op.id);
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
