import { useState } from 'react';
import { REPORT_REASONS } from '~/lib/enums';
import { reasonOfReport } from '~/lib/moderation/reasons';
import { client, idParam, parseResponse } from './api';
import { type HideDecision, HideListingPanel, NO_CONTACT } from './HideListingPanel';
import { formatDate, Notices, Pager } from './ui';
import { useList } from './use-list';

const reasonLabel = (value: string) => REPORT_REASONS.find((r) => r.value === value)?.label ?? value;

/** A report whose server the moderator is about to hide, and the listing's name. */
interface Hiding {
  report: { id: number };
  name: string;
}

/**
 * Open reports grouped by server: resolve, dismiss, or hide the server. Hiding asks first, as the
 * Servers screen does (#32): the reasons its owner is mailed with the appeal link (the report's
 * own reason ticked to start with) and a note, then Hide listing.
 */
export function ReportsScreen() {
  const list = useList({
    filters: {},
    perPage: 20,
    load: async (_filters, paging) => {
      const { groups, total } = await parseResponse(client.api.admin.reports.$get({ query: paging }));
      return { rows: groups, total };
    },
  });
  const groups = list.rows;
  const [hiding, setHiding] = useState<Hiding | null>(null);
  const act = (report: { id: number }, action: 'resolve' | 'dismiss', label: string) =>
    list.run(label, () => client.api.admin.reports[':id'].$patch({ param: idParam(report), json: { action } }));

  const hide = ({ report, name }: Hiding, decision: HideDecision) => {
    setHiding(null);
    // Only a listing with a contact address on record (its submission's) is mailed.
    let mailed = false;
    void list.run(
      () => `${name} is hidden; ${mailed ? 'its owner is mailed why' : NO_CONTACT}, and its open reports are resolved.`,
      async () => {
        const answer = await parseResponse(
          await client.api.admin.reports[':id'].$patch({
            param: idParam(report),
            json: { action: 'hide_server', ...decision },
          }),
        );
        mailed = answer.owner_mailed;
      },
    );
  };

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
          ] as const;
          const name = g.name ?? `Server #${g.server_id}`;
          return (
            <article className="card" key={g.server_id} aria-labelledby={`report-server-${g.server_id}`}>
              <h2 id={`report-server-${g.server_id}`}>
                {g.slug ? (
                  <a href={`/server/${g.slug}`} target="_blank" rel="noopener">
                    {g.name}
                  </a>
                ) : (
                  name
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
                          className="btn btn-small"
                          onClick={() => act(r, a.action, a.done)}
                        >
                          {a.label}
                        </button>
                      ))}
                      <button
                        type="button"
                        className="btn btn-small btn-danger"
                        onClick={() => setHiding({ report: r, name })}
                      >
                        Hide server
                      </button>
                    </div>
                    {hiding?.report.id === r.id && (
                      <HideListingPanel
                        key={r.id}
                        id="report-hide-detail"
                        level={3}
                        name={hiding.name}
                        // The report's own reason to start with (the API's default without any).
                        initial={{ reasons: [reasonOfReport(r.reason)], requirement: '' }}
                        busy={list.busy}
                        onHide={(decision) => hide(hiding, decision)}
                        onClose={() => setHiding(null)}
                      />
                    )}
                  </li>
                ))}
              </ul>
            </article>
          );
        })
      )}
      {list.pager && <Pager {...list.pager} />}
    </section>
  );
}
