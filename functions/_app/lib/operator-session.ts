// The console's session cookie (operators; owners have their own, lib/owner-session.ts): set at
// sign-in, read by the console's guard (middleware/auth.ts), cleared at sign-out.
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { SESSION_ABSOLUTE_MS } from '../../../db/queries/sessions';

/** Paths the console's auth middleware lets through without a session (sign-in only). */
export const PUBLIC_ADMIN_PATHS: readonly string[] = ['/api/admin/login'];

/** `__Host-` cookies need HTTPS; plain-HTTP local runs use an unprefixed name. */
export const sessionCookieName = (siteUrl: string): string =>
  siteUrl.startsWith('https:') ? '__Host-gr_session' : 'gr_session';

/** Sets the session cookie: HttpOnly, SameSite=Strict, Path=/, Secure over HTTPS. */
export function setSessionCookie(c: Context, siteUrl: string, token: string): void {
  const secure = siteUrl.startsWith('https:');
  setCookie(c, sessionCookieName(siteUrl), token, {
    httpOnly: true,
    secure,
    sameSite: 'Strict',
    path: '/',
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  });
}

/** Removes the session cookie from the browser. */
export function clearSessionCookie(c: Context, siteUrl: string): void {
  const secure = siteUrl.startsWith('https:');
  deleteCookie(c, sessionCookieName(siteUrl), { path: '/', secure, httpOnly: true, sameSite: 'Strict' });
}
