import { useEffect, useState } from 'react';
import { api, messageOf } from './api';
import type { AuditRow } from './types';
import { formatDate, Notice, Pager } from './ui';

const PER_PAGE = 50;

/** Who did what to which record, newest first. */
export function AuditLog() {
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ entries: AuditRow[]; total: number } | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    api<{ entries: AuditRow[]; total: number }>('GET', `/audit?page=${page}&per_page=${PER_PAGE}`)
      .then(setList)
      .catch((err) => setError(messageOf(err)));
  }, [page]);
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <Notice>{error}</Notice>
      {!list ? (
        <p className="muted">Loading…</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Audit log</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Record</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {list.entries.map((e) => (
                <tr key={e.id}>
                  <td>{formatDate(e.created_at)}</td>
                  <td>{e.operator_email ?? '—'}</td>
                  <td>{e.action}</td>
                  <td>
                    {e.entity}
                    {e.entity_id ? ` #${e.entity_id}` : ''}
                  </td>
                  <td className="details">{e.details ? JSON.stringify(e.details) : ''}</td>
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
