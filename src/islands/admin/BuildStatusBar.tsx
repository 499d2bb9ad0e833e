import { useCallback, useEffect, useState } from 'react';
import { client, messageOf, parseResponse } from './api';
import type { BuildStatus } from './types';
import { formatDate } from './ui';

const LABEL: Record<BuildStatus['state'], string> = {
  idle: 'Live',
  queued: 'Rebuild queued',
  building: 'Building…',
  failed: 'Last build failed',
};

/** The site rebuild state on every screen: polls quickly while a build is pending, slowly otherwise. */
export function BuildStatusBar({ canTrigger }: { canTrigger: boolean }) {
  const [status, setStatus] = useState<BuildStatus | null>(null);
  const [error, setError] = useState('');

  const refresh = useCallback(async () => {
    try {
      setStatus(await parseResponse(client.api.admin.build.$get()));
      setError('');
    } catch (err) {
      setError(messageOf(err));
    }
  }, []);

  const busy = status?.state === 'queued' || status?.state === 'building';
  useEffect(() => {
    void refresh();
    const timer = window.setInterval(refresh, busy ? 1500 : 10_000);
    // Any write elsewhere in the console may have queued a build.
    const onWrite = () => void refresh();
    window.addEventListener('admin:changed', onWrite);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('admin:changed', onWrite);
    };
  }, [refresh, busy]);

  const rebuild = async () => {
    try {
      setStatus(await parseResponse(client.api.admin.build.$post()));
    } catch (err) {
      setError(messageOf(err));
    }
  };

  return (
    <div className="build-status" role="status" aria-live="polite" data-state={status?.state ?? 'unknown'}>
      <span className="build-dot" aria-hidden="true" />
      <span className="build-label">
        Site: {status ? (status.configured ? LABEL[status.state] : 'no rebuild trigger') : 'checking…'}
      </span>
      {status?.lastDurationMs != null && (
        <span className="muted"> · last build {(status.lastDurationMs / 1000).toFixed(1)} s</span>
      )}
      {status?.liveSince && <span className="muted"> · live since {formatDate(status.liveSince)}</span>}
      {status?.state === 'failed' && status.lastError && (
        <details className="build-error">
          <summary>Error</summary>
          <pre>{status.lastError}</pre>
        </details>
      )}
      {error && <span className="notice-error"> {error}</span>}
      {canTrigger && (
        <button type="button" className="btn btn-small" onClick={rebuild} disabled={busy}>
          Rebuild now
        </button>
      )}
    </div>
  );
}
