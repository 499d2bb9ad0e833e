import { useCallback, useEffect, useState } from 'react';
import { subcategoryNames } from '~/lib/categories';
import { SUBMISSION_STATUSES, type SubmissionStatus } from '~/lib/enums';
import { isSafeImageSrc } from '~/lib/url-safety';
import { api, messageOf, qs } from './api';
import type { ServerRow, SubmissionRow, SubmissionStats } from './types';
import { Badge, formatDate, Notice, Pager, Stat, useWrites } from './ui';

const PER_PAGE = 20;

/** The submissions queue: filter, stats, detail, review notes, approve, reject, delete. */
export function SubmissionsScreen() {
  const [status, setStatus] = useState<SubmissionStatus | ''>('pending');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ submissions: SubmissionRow[]; total: number } | null>(null);
  const [stats, setStats] = useState<SubmissionStats | null>(null);
  const [selected, setSelected] = useState<SubmissionRow | null>(null);
  const [notes, setNotes] = useState('');
  const [subcategory, setSubcategory] = useState('');
  const writes = useWrites();
  const { error, setError, done, setDone, busy } = writes;

  const load = useCallback(async () => {
    try {
      const [l, s] = await Promise.all([
        api<{ submissions: SubmissionRow[]; total: number }>(
          'GET',
          `/submissions${qs({ status, page, per_page: PER_PAGE })}`,
        ),
        api<SubmissionStats>('GET', '/submissions/stats'),
      ]);
      setList(l);
      setStats(s);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [status, page, setError]);

  useEffect(() => {
    void load();
  }, [load]);

  const open = (s: SubmissionRow) => {
    setSelected(s);
    setNotes(s.admin_notes ?? '');
    setSubcategory(s.subcategory ?? '');
    setDone('');
    setError('');
  };

  const act = (label: string, write: () => Promise<unknown>) =>
    writes.run(
      label,
      async () => {
        await write();
        setSelected(null);
      },
      load,
    );

  const approve = (s: SubmissionRow) =>
    act(`Approved “${s.server_name}”. The site is rebuilding; the page goes live in a few seconds.`, async () => {
      const res = await api<{ server: ServerRow }>('POST', `/submissions/${s.id}/approve`, {
        admin_notes: notes || undefined,
        // The reviewer's choice, stored on the listing ('' is none).
        ...(subcategoryNames(s.category).length > 0 ? { subcategory: subcategory || null } : {}),
      });
      return res.server;
    });
  const setSubmissionStatus = (s: SubmissionRow, next: 'under_review' | 'rejected' | 'pending') =>
    act(`“${s.server_name}” is now ${next.replace('_', ' ')}.`, () =>
      api('PATCH', `/submissions/${s.id}`, { status: next, admin_notes: notes }),
    );
  const remove = (s: SubmissionRow) => {
    if (!window.confirm(`Delete the submission “${s.server_name}”? This cannot be undone.`)) return;
    void act(`Deleted “${s.server_name}”.`, () => api('DELETE', `/submissions/${s.id}`));
  };

  return (
    <section aria-labelledby="subs-title">
      <h1 id="subs-title">Submissions</h1>
      {stats && (
        <div className="stats">
          <Stat label="Total" value={stats.total} />
          <Stat label="Pending" value={stats.pending} />
          <Stat label="Under review" value={stats.under_review} />
          <Stat label="Approved" value={stats.approved} />
          <Stat label="Rejected" value={stats.rejected} />
        </div>
      )}
      <div className="toolbar">
        <label>
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as SubmissionStatus | '');
              setPage(1);
            }}
          >
            <option value="">All</option>
            {SUBMISSION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Notice>{error}</Notice>
      <Notice kind="ok">{done}</Notice>

      {selected && (
        <article className="card detail" aria-labelledby="sub-detail">
          <h2 id="sub-detail">
            {selected.server_name} <Badge value={selected.status} />
          </h2>
          <dl className="facts">
            <dt>Category</dt>
            <dd>
              {selected.category}
              {selected.subcategory ? ` · ${selected.subcategory}` : ''}
            </dd>
            <dt>Invite</dt>
            <dd>
              <a href={selected.invite_link} rel="noopener noreferrer nofollow" target="_blank">
                {selected.invite_link}
              </a>
            </dd>
            <dt>Members</dt>
            <dd>
              {selected.member_count.toLocaleString()} ({selected.active_users.toLocaleString()} online)
            </dd>
            <dt>Submitted by</dt>
            <dd>
              {selected.submitter_name} &lt;{selected.contact_email}&gt;{' '}
              {selected.is_owner ? '(owner)' : '(not the owner)'}
            </dd>
            <dt>Submitted</dt>
            <dd>{formatDate(selected.created_at)}</dd>
            <dt>Icon</dt>
            <dd>
              {isSafeImageSrc(selected.server_image) ? (
                <img src={selected.server_image} alt="" width={48} height={48} />
              ) : (
                selected.server_image || '—'
              )}
            </dd>
          </dl>
          <h3>Description</h3>
          <p className="prewrap">{selected.server_description}</p>
          {selected.features && (
            <>
              <h3>Features</h3>
              <p className="prewrap">{selected.features}</p>
            </>
          )}
          {selected.status !== 'approved' && subcategoryNames(selected.category).length > 0 && (
            <label>
              Subcategory (stored on the listing at approval)
              <select value={subcategory} onChange={(e) => setSubcategory(e.target.value)}>
                <option value="">None</option>
                {subcategoryNames(selected.category).map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label>
            Admin notes
            <textarea rows={3} value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={2000} />
          </label>
          <div className="actions">
            {selected.status !== 'approved' && (
              <>
                <button type="button" className="btn btn-primary" disabled={busy} onClick={() => approve(selected)}>
                  Approve and publish
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={busy}
                  onClick={() => setSubmissionStatus(selected, 'under_review')}
                >
                  Mark under review
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={busy}
                  onClick={() => setSubmissionStatus(selected, 'rejected')}
                >
                  Reject
                </button>
              </>
            )}
            <button type="button" className="btn btn-danger" disabled={busy} onClick={() => remove(selected)}>
              Delete
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setSelected(null)}>
              Close
            </button>
          </div>
        </article>
      )}

      {!list ? (
        <p className="muted">Loading…</p>
      ) : list.submissions.length === 0 ? (
        <p className="muted">No submissions{status ? ` with status ${status.replace('_', ' ')}` : ''}.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Submissions</caption>
            <thead>
              <tr>
                <th scope="col">Server</th>
                <th scope="col">Category</th>
                <th scope="col">Members</th>
                <th scope="col">Submitted</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.submissions.map((s) => (
                <tr key={s.id} aria-selected={selected?.id === s.id}>
                  <th scope="row">{s.server_name}</th>
                  <td>{s.category}</td>
                  <td>{s.member_count.toLocaleString()}</td>
                  <td>{formatDate(s.created_at)}</td>
                  <td>
                    <Badge value={s.status} />
                  </td>
                  <td>
                    <button type="button" className="btn btn-small" onClick={() => open(s)}>
                      Review<span className="visually-hidden"> {s.server_name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && <Pager page={page} perPage={PER_PAGE} total={list.total} onPage={setPage} />}
    </section>
  );
}
