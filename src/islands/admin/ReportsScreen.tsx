import { REPORT_REASONS } from '~/lib/enums';
import { client, idParam, parseResponse } from './api';
import { formatDate, Notices } from './ui';
import { useList } from './use-list';

const reasonLabel = (value: string) => REPORT_REASONS.find((r) => r.value === value)?.label ?? value;

/** Open reports grouped by server: resolve, dismiss, or hide the server. */
export function ReportsScreen() {
  const list = useList({
    filters: {},
    load: async () => ({ rows: (await parseResponse(client.api.admin.reports.$get())).groups }),
  });
  const groups = list.rows;

  const act = (report: { id: number }, action: 'resolve' | 'dismiss' | 'hide_server', label: string) =>
    list.run(label, () => client.api.admin.reports[':id'].$patch({ param: idParam(report), json: { action } }));

  return (
    <section aria-labelledby="reports-title">
      <h1 id="reports-title">Reports</h1>
      <Notices error={list.error} done={list.done} />
      {!groups ? (
        <p className="muted">Loading…</p>
      ) : groups.length === 0 ? (
        <p className="muted">No open reports. Nice.</p>
      ) : (
        groups.map((g) => {
          const actions = [
            { action: 'resolve', label: 'Resolve', done: 'Report resolved.' },
            { action: 'dismiss', label: 'Dismiss', done: 'Report dismissed.' },
            {
              action: 'hide_server',
              label: 'Hide server',
              done: `${g.name ?? 'The server'} is hidden; its open reports are resolved.`,
            },
          ] as const;
          return (
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
                      <strong>{reasonLabel(r.reason)}</strong>{' '}
                      <span className="muted">· {formatDate(r.created_at)}</span>
                      {r.details && <p className="prewrap">{r.details}</p>}
                    </div>
                    <div className="actions">
                      {actions.map((a) => (
                        <button
                          type="button"
                          key={a.action}
                          className={a.action === 'hide_server' ? 'btn btn-small btn-danger' : 'btn btn-small'}
                          onClick={() => act(r, a.action, a.done)}
                        >
                          {a.label}
                        </button>
                      ))}
                    </div>
                  </li>
                ))}
              </ul>
            </article>
          );
        })
      )}
    </section>
  );
}
