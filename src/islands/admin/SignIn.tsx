import { type SubmitEvent, useState } from 'react';
import { loginSchema } from '~/lib/schemas/admin';
import { AdminApiError, api, messageOf } from './api';
import type { SessionInfo } from './types';
import { Notice } from './ui';

/** Email and password sign-in; says so when the throttle asks to wait. */
export function SignIn({ onSignedIn }: { onSignedIn: (info: SessionInfo) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    const parsed = loginSchema.safeParse({ email, password });
    if (!parsed.success) {
      setError('Enter your email address and password.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      onSignedIn(await api<SessionInfo>('POST', '/login', parsed.data));
    } catch (err) {
      setError(
        err instanceof AdminApiError && err.status === 429
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
        <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Password
        <input
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
