import { useCallback, useEffect, useState } from 'react';
import { CONTACT_STATUSES, CONTACT_SUBJECTS } from '~/lib/enums';
import { api, messageOf, qs } from './api';
import type { ContactRow } from './types';
import { Badge, formatDate, Notice, Pager, useWrites } from './ui';

const PER_PAGE = 20;
const subjectLabel = (v: string) => CONTACT_SUBJECTS.find((s) => s.value === v)?.label ?? v;

/** Contact messages with their status (new, read, replied, archived). */
export function ContactInbox() {
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ messages: ContactRow[]; total: number } | null>(null);
  const writes = useWrites();
  const { error, setError, done } = writes;

  const load = useCallback(async () => {
    try {
      setList(await api('GET', `/contact${qs({ status, page, per_page: PER_PAGE })}`));
    } catch (err) {
      setError(messageOf(err));
    }
  }, [status, page, setError]);
  useEffect(() => {
    void load();
  }, [load]);

  const setMessageStatus = async (m: ContactRow, next: ContactRow['status']) => {
    setList((l) => (l ? { ...l, messages: l.messages.map((x) => (x.id === m.id ? { ...x, status: next } : x)) } : l));
    await writes.run(
      `Message from ${m.name} marked ${next}.`,
      () => api('PATCH', `/contact/${m.id}`, { status: next }),
      load,
      { publishes: false },
    );
  };

  return (
    <section aria-labelledby="contact-title">
      <h1 id="contact-title">Contact inbox</h1>
      <div className="toolbar">
        <label>
          Status
          <select
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(1);
            }}
          >
            <option value="">All</option>
            {CONTACT_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </div>
      <Notice>{error}</Notice>
      <Notice kind="ok">{done}</Notice>
      {!list ? (
        <p className="muted">Loading…</p>
      ) : list.messages.length === 0 ? (
        <p className="muted">No messages.</p>
      ) : (
        list.messages.map((m) => (
          <article className="card message" key={m.id} aria-labelledby={`msg-${m.id}`}>
            <header className="message-head">
              <h2 id={`msg-${m.id}`}>
                {subjectLabel(m.subject)} <Badge value={m.priority} />
              </h2>
              <label>
                Status
                <select
                  value={m.status}
                  onChange={(e) => setMessageStatus(m, e.target.value as ContactRow['status'])}
                  aria-label={`Status of message ${m.id}`}
                >
                  {CONTACT_STATUSES.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              </label>
            </header>
            <p className="muted">
              {m.name} &lt;<a href={`mailto:${m.email}`}>{m.email}</a>&gt; · {formatDate(m.created_at)}
            </p>
            <p className="prewrap">{m.message}</p>
          </article>
        ))
      )}
      {list && <Pager page={page} perPage={PER_PAGE} total={list.total} onPage={setPage} />}
    </section>
  );
}
