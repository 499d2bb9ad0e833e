import { type ReactNode, useState } from 'react';
import { messageOf } from './api';

/** Tells the build bar that something was written (it refreshes at once). */
const announceChange = (): void => {
  window.dispatchEvent(new Event('admin:changed'));
};

/** Short local date and time of an ISO timestamp. */
export const formatDate = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

/** An error or notice line announced to screen readers. */
export function Notice({ kind = 'error', children }: { kind?: 'error' | 'ok'; children: ReactNode }) {
  if (!children) return null;
  return (
    <p className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

/** A coloured label for a status value. */
export const Badge = ({ value }: { value: string }) => (
  <span className={`badge badge-${value}`}>{value.replace('_', ' ')}</span>
);

/** Previous/next paging with "page N of M". */
export function Pager({
  page,
  perPage,
  total,
  onPage,
}: {
  page: number;
  perPage: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages} · {total} total
      </span>
      <button type="button" className="btn" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** A labelled stat tile. */
export const Stat = ({ label, value }: { label: string; value: number | string }) => (
  <div className="stat">
    <span className="stat-value">{typeof value === 'number' ? value.toLocaleString() : value}</span>
    <span className="stat-label">{label}</span>
  </div>
);

/**
 * Error and success messages of one console screen, and the one way its writes run: clear
 * the messages, do the write, say what happened, tell the build bar when a public page may
 * change, and reload the screen's list in every case so it shows what is stored.
 */
export function useWrites() {
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (
    label: string,
    write: () => Promise<unknown>,
    reload: () => Promise<void>,
    { publishes = true }: { publishes?: boolean } = {},
  ): Promise<boolean> => {
    setError('');
    setDone('');
    setBusy(true);
    try {
      await write();
      setDone(label);
      if (publishes) announceChange();
      return true;
    } catch (err) {
      setError(messageOf(err));
      return false;
    } finally {
      setBusy(false);
      await reload();
    }
  };
  return { error, setError, done, setDone, busy, run };
}
