import { useCallback, useEffect, useState } from 'react';
import { NEWSLETTER_STATUSES } from '~/lib/enums';
import { api, messageOf, qs } from './api';
import type { NewsletterStats, SubscriberRow } from './types';
import { Badge, formatDate, Notice, Pager, Stat, useWrites } from './ui';

const PER_PAGE = 25;

/** Subscribers: search, status, premium flag, stats and the CSV export. */
export function NewsletterScreen() {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ subscribers: SubscriberRow[]; total: number } | null>(null);
  const [stats, setStats] = useState<NewsletterStats | null>(null);
  const writes = useWrites();
  const { error, setError, done } = writes;

  const load = useCallback(async () => {
    try {
      const [l, s] = await Promise.all([
        api<{ subscribers: SubscriberRow[]; total: number }>(
          'GET',
          `/newsletter${qs({ search: query, status, page, per_page: PER_PAGE })}`,
        ),
        api<NewsletterStats>('GET', '/newsletter/stats'),
      ]);
      setList(l);
      setStats(s);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [query, status, page, setError]);
  useEffect(() => {
    void load();
  }, [load]);

  const patch = async (s: SubscriberRow, body: Partial<SubscriberRow>, label: string) => {
    // Show the change at once; the reload after the write (or its failure) brings the stored truth.
    setList((l) => (l ? { ...l, subscribers: l.subscribers.map((x) => (x.id === s.id ? { ...x, ...body } : x)) } : l));
    await writes.run(label, () => api('PATCH', `/newsletter/${s.id}`, body), load, { publishes: false });
  };

  return (
    <section aria-labelledby="news-title">
      <h1 id="news-title">Newsletter</h1>
      {stats && (
        <div className="stats">
          <Stat label="Total" value={stats.total} />
          <Stat label="Active" value={stats.active} />
          <Stat label="Unsubscribed" value={stats.unsubscribed} />
          <Stat label="Premium" value={stats.premium} />
          <Stat label="New, 7 days" value={stats.new_last_7_days} />
          <Stat label="New, 30 days" value={stats.new_last_30_days} />
        </div>
      )}
      <form
        className="toolbar"
        aria-label="Search"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setQuery(search.trim());
        }}
      >
        <label>
          Search email
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
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
            {NEWSLETTER_STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn">
          Search
        </button>
        <a className="btn" href="/api/admin/newsletter/export.csv" download>
          Export CSV
        </a>
      </form>
      <Notice>{error}</Notice>
      <Notice kind="ok">{done}</Notice>
      {!list ? (
        <p className="muted">Loading…</p>
      ) : list.subscribers.length === 0 ? (
        <p className="muted">No subscribers match.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Subscribers</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Status</th>
                <th scope="col">Premium</th>
                <th scope="col">Source</th>
                <th scope="col">Joined</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.subscribers.map((s) => (
                <tr key={s.id}>
                  <th scope="row">{s.email}</th>
                  <td>
                    <Badge value={s.status} />
                  </td>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`${s.email} premium`}
                      checked={s.premium_subscriber}
                      onChange={(e) =>
                        patch(
                          s,
                          { premium_subscriber: e.target.checked },
                          `${s.email}: premium ${e.target.checked ? 'on' : 'off'}.`,
                        )
                      }
                    />
                  </td>
                  <td>{s.source}</td>
                  <td>{formatDate(s.created_at)}</td>
                  <td>
                    {s.status === 'active' ? (
                      <button
                        type="button"
                        className="btn btn-small"
                        onClick={() => patch(s, { status: 'unsubscribed' }, `${s.email} unsubscribed.`)}
                      >
                        Unsubscribe<span className="visually-hidden"> {s.email}</span>
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="btn btn-small"
                        onClick={() => patch(s, { status: 'active' }, `${s.email} reactivated.`)}
                      >
                        Reactivate<span className="visually-hidden"> {s.email}</span>
                      </button>
                    )}
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
