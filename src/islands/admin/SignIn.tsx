import { type SubmitEvent, useState } from 'react';
import { loginSchema } from '~/lib/schemas/admin';
import { ApiCallError, client, messageOf, parseResponse } from './api';
import type { SessionInfo } from './types';
import { Notice } from './ui';

/** Email and password sign-in; says so when the throttle asks to wait. */
export function SignIn({ onSignedIn }: { onSignedIn: (info: SessionInfo) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  // The fields are uncontrolled and read when sent: whatever they hold (typed, or filled in by
  // a password manager without input events) is what signs in.
  const submit = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const parsed = loginSchema.safeParse({ email: data.get('email') ?? '', password: data.get('password') ?? '' });
    if (!parsed.success) {
      setError('Enter your email address and password.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      onSignedIn(await parseResponse(client.api.admin.login.$post({ json: parsed.data })));
    } catch (err) {
      setError(
        err instanceof ApiCallError && err.status === 429
          ? 'Too many attempts from this network. Wait a little and try again.'
          : messageOf(err),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card sign-in" onSubmit={submit} noValidate>
      <h1>Sign in to the console</h1>
      <p className="muted">Operators only. Accounts are created by an admin.</p>
      <Notice>{error}</Notice>
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
