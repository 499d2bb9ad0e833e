import { useCallback, useEffect, useRef, useState } from 'react';
import { AppealsScreen } from './AppealsScreen';
import { AuditLog } from './AuditLog';
import { ApiCallError, client, messageOf, parseResponse, setCsrfToken, setUnauthenticatedHandler } from './api';
import { BuildStatusBar } from './BuildStatusBar';
import { ContactInbox } from './ContactInbox';
import { ContentEditor } from './ContentEditor';
import { DashboardScreen } from './DashboardScreen';
import { FreshnessScreen } from './FreshnessScreen';
import { NewsletterScreen } from './NewsletterScreen';
import { OrdersScreen } from './OrdersScreen';
import { OutboxScreen } from './OutboxScreen';
import { ReportsScreen } from './ReportsScreen';
import { ReviewsScreen } from './ReviewsScreen';
import { ServersScreen } from './ServersScreen';
import { SignIn } from './SignIn';
import { SubmissionsScreen } from './SubmissionsScreen';
import type { Operator, SessionInfo } from './types';
import { focusScreenHeading, Notice } from './ui';

const SCREENS = [
  { id: 'dashboard', label: 'Dashboard', admin: true },
  { id: 'submissions', label: 'Submissions', admin: false },
  { id: 'servers', label: 'Servers', admin: false },
  { id: 'reports', label: 'Reports', admin: false },
  { id: 'reviews', label: 'Reviews', admin: false },
  { id: 'appeals', label: 'Appeals', admin: false },
  { id: 'freshness', label: 'Freshness', admin: false },
  { id: 'content', label: 'Content', admin: true },
  { id: 'newsletter', label: 'Newsletter', admin: true },
  { id: 'contact', label: 'Contact inbox', admin: true },
  { id: 'outbox', label: 'Outbox', admin: true },
  { id: 'orders', label: 'Orders', admin: true },
  { id: 'audit', label: 'Audit log', admin: true },
] as const;
type ScreenId = (typeof SCREENS)[number]['id'];

const screenFromHash = (): ScreenId | null => {
  const id = window.location.hash.replace(/^#/, '');
  return SCREENS.some((s) => s.id === id) ? (id as ScreenId) : null;
};

/** The operator console: sign-in, then one screen at a time chosen by the URL hash. */
export default function AdminApp() {
  const [operator, setOperator] = useState<Operator | null>(null);
  const [checking, setChecking] = useState(true);
  const [bootError, setBootError] = useState('');
  const [screen, setScreen] = useState<ScreenId | null>(null);

  const signedIn = useCallback((info: SessionInfo) => {
    setCsrfToken(info.csrfToken);
    setOperator(info.operator);
  }, []);
  // Signing in replaces the form, and the focus with it: it goes to the first screen's heading.
  const mainRef = useRef<HTMLElement>(null);
  const fromSignIn = useRef(false);
  const signedInByForm = useCallback(
    (info: SessionInfo) => {
      fromSignIn.current = true;
      signedIn(info);
    },
    [signedIn],
  );
  useEffect(() => {
    if (!operator || !fromSignIn.current) return;
    fromSignIn.current = false;
    focusScreenHeading(mainRef.current);
  }, [operator]);

  useEffect(() => {
    setUnauthenticatedHandler(() => setOperator(null));
    parseResponse(client.api.admin.me.$get())
      .then(signedIn)
      .catch((err) => {
        if (!(err instanceof ApiCallError && err.status === 401)) setBootError(messageOf(err));
      })
      .finally(() => setChecking(false));
    const onHash = () => setScreen(screenFromHash());
    onHash();
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [signedIn]);

  if (checking) {
    return (
      <main id="main">
        <p className="muted console-loading">Loading the console…</p>
      </main>
    );
  }
  if (!operator) {
    return (
      <main id="main">
        <Notice>{bootError}</Notice>
        <SignIn onSignedIn={signedInByForm} />
      </main>
    );
  }

  const allowed = SCREENS.filter((s) => !s.admin || operator.role === 'admin');
  const current = allowed.find((s) => s.id === screen) ?? allowed[0]!;

  const signOut = async () => {
    try {
      await client.api.admin.logout.$post();
    } finally {
      setCsrfToken('');
      setOperator(null);
    }
  };

  return (
    <div className="console">
      <header className="console-header">
        <div className="console-brand">
          <strong>GuildRank</strong> console
        </div>
        <BuildStatusBar canTrigger={operator.role === 'admin'} />
        <div className="console-user">
          <span>
            {operator.email} <span className="badge">{operator.role}</span>
          </span>
          <button type="button" className="btn" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <nav className="console-nav" aria-label="Console">
        <ul>
          {allowed.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`} aria-current={s.id === current.id ? 'page' : undefined}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main className="console-main" id="main" ref={mainRef}>
        {current.id === 'dashboard' && <DashboardScreen />}
        {current.id === 'submissions' && <SubmissionsScreen />}
        {current.id === 'servers' && <ServersScreen isAdmin={operator.role === 'admin'} />}
        {current.id === 'reports' && <ReportsScreen />}
        {current.id === 'reviews' && <ReviewsScreen />}
        {current.id === 'appeals' && <AppealsScreen />}
        {current.id === 'freshness' && <FreshnessScreen isAdmin={operator.role === 'admin'} />}
        {current.id === 'content' && <ContentEditor />}
        {current.id === 'newsletter' && <NewsletterScreen />}
        {current.id === 'contact' && <ContactInbox />}
        {current.id === 'outbox' && <OutboxScreen />}
        {current.id === 'orders' && <OrdersScreen />}
        {current.id === 'audit' && <AuditLog />}
      </main>
    </div>
  );
}
