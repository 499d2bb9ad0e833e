import { useCallback, useEffect, useState } from 'react';
import { REPORT_REASONS } from '~/lib/enums';
import { api, messageOf } from './api';
import type { ReportGroup } from './types';
import { formatDate, Notice, useWrites } from './ui';

const reasonLabel = (value: string) => REPORT_REASONS.find((r) => r.value === value)?.label ?? value;

/** Open reports grouped by server: resolve, dismiss, or hide the server. */
export function ReportsScreen() {
  const [groups, setGroups] = useState<ReportGroup[] | null>(null);
  const writes = useWrites();
  const { error, setError, done } = writes;

  const load = useCallback(async () => {
    try {
      setGroups((await api<{ groups: ReportGroup[] }>('GET', '/reports')).groups);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [setError]);
  useEffect(() => {
    void load();
  }, [load]);

  const act = (id: number, action: 'resolve' | 'dismiss' | 'hide_server', label: string) =>
    writes.run(label, () => api('PATCH', `/reports/${id}`, { action }), load);

  return (
    <section aria-labelledby="reports-title">
      <h1 id="reports-title">Reports</h1>
      <Notice>{error}</Notice>
      <Notice kind="ok">{done}</Notice>
      {!groups ? (
        <p className="muted">Loading…</p>
      ) : groups.length === 0 ? (
        <p className="muted">No open reports. Nice.</p>
      ) : (
        groups.map((g) => (
          <article className="card" key={g.server_id} aria-labelledby={`report-server-${g.server_id}`}>
            <h2 id={`report-server-${g.server_id}`}>
              {g.slug ? (
                <a href={`/server/${g.slug}`} target="_blank" rel="noopener">
                  {g.name}
                </a>
              ) : (
                (g.name ?? `Server #${g.server_id}`)
              )}{' '}
              <span className="badge badge-open">{g.open} open</span>
            </h2>
            <ul className="report-list">
              {g.reports.map((r) => (
                <li key={r.id}>
                  <div>
                    <strong>{reasonLabel(r.reason)}</strong> <span className="muted">· {formatDate(r.created_at)}</span>
                    {r.details && <p className="prewrap">{r.details}</p>}
                  </div>
                  <div className="actions">
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => act(r.id, 'resolve', 'Report resolved.')}
                    >
                      Resolve
                    </button>
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => act(r.id, 'dismiss', 'Report dismissed.')}
                    >
                      Dismiss
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-danger"
                      onClick={() =>
                        act(r.id, 'hide_server', `${g.name ?? 'The server'} is hidden; its open reports are resolved.`)
                      }
                    >
                      Hide server
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          </article>
        ))
      )}
    </section>
  );
}
