import { useEffect, useMemo, useState } from 'react';
import { api, messageOf } from './api';
import { Chart } from './Chart';
import type { Dashboard } from './types';
import { formatDate, Notice, Stat } from './ui';

/** The kinds the actions table lists, in funnel order, then the visitor actions. */
const ACTION_ROWS = [
  ['view', 'Views'],
  ['click', 'Clicks (joins, premium call to action)'],
  ['signup', 'Signups'],
  ['conversion', 'Conversions (premium enquiries)'],
  ['save', 'Saves'],
  ['unsave', 'Unsaves'],
  ['share', 'Shares'],
  ['report', 'Reports'],
] as const;

/** The 7-day funnel, queues, newsletter figures and premium performance. */
export function DashboardScreen() {
  const [data, setData] = useState<Dashboard | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    api<Dashboard>('GET', '/dashboard')
      .then(setData)
      .catch((err) => setError(messageOf(err)));
  }, []);

  const labels = useMemo(() => data?.daily.map((d) => d.date) ?? [], [data]);
  const series = useMemo(
    () =>
      data
        ? [
            { label: 'Views', values: data.daily.map((d) => d.views), color: '#6366f1' },
            { label: 'Clicks', values: data.daily.map((d) => d.clicks), color: '#0891b2' },
            { label: 'Signups', values: data.daily.map((d) => d.signups), color: '#16a34a' },
            { label: 'Conversions', values: data.daily.map((d) => d.conversions), color: '#d97706' },
          ]
        : [],
    [data],
  );

  if (error) return <Notice>{error}</Notice>;
  if (!data) return <p className="muted">Loading the dashboard…</p>;

  return (
    <section aria-labelledby="dash-title">
      <h1 id="dash-title">Dashboard</h1>
      <h2>Last 7 days</h2>
      <div className="stats">
        <Stat label="Views" value={data.funnel.views} />
        <Stat label="Clicks" value={data.funnel.clicks} />
        <Stat label="Signups" value={data.funnel.signups} />
        <Stat label="Conversions" value={data.funnel.conversions} />
        <Stat label="Revenue" value={data.totals.revenue.toFixed(2)} />
      </div>
      <div className="table-wrap">
        <table>
          <caption>Each action once, at its worth (SPEC conversion values, last 7 days)</caption>
          <thead>
            <tr>
              <th scope="col">Action</th>
              <th scope="col">Count</th>
              <th scope="col">Worth</th>
            </tr>
          </thead>
          <tbody>
            {ACTION_ROWS.map(([kind, label]) => (
              <tr key={kind}>
                <th scope="row">{label}</th>
                <td>{data.totals.counts[kind].toLocaleString()}</td>
                <td>{data.totals.values[kind].toFixed(2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Chart title="Funnel per day (last 7 days)" labels={labels} series={series} />

      <div className="grid-2">
        <div className="card">
          <h2>
            <a href="#submissions">Pending submissions</a>
          </h2>
          <div className="stats">
            <Stat label="Pending" value={data.submissions.pending} />
            <Stat label="Under review" value={data.submissions.under_review} />
            <Stat label="Approved" value={data.submissions.approved} />
            <Stat label="Rejected" value={data.submissions.rejected} />
          </div>
          {data.pending.length === 0 ? (
            <p className="muted">Nothing waiting.</p>
          ) : (
            <ul className="plain-list">
              {data.pending.map((s) => (
                <li key={s.id}>
                  <strong>{s.server_name}</strong>{' '}
                  <span className="muted">
                    · {s.category} · {formatDate(s.created_at)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="card">
          <h2>
            <a href="#reports">Open reports</a>
          </h2>
          <div className="stats">
            <Stat label="Open" value={data.openReports.total} />
          </div>
          {data.openReports.byServer.length === 0 ? (
            <p className="muted">No open reports.</p>
          ) : (
            <ul className="plain-list">
              {data.openReports.byServer.map((g) => (
                <li key={g.server_id}>
                  <strong>{g.name ?? `Server #${g.server_id}`}</strong>{' '}
                  <span className="muted">
                    · {g.open} open · latest {formatDate(g.latest_at)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>

      <div className="card">
        <h2>
          <a href="#newsletter">Newsletter</a>
        </h2>
        <div className="stats">
          <Stat label="Subscribers" value={data.newsletter.total} />
          <Stat label="Active" value={data.newsletter.active} />
          <Stat label="Unsubscribed" value={data.newsletter.unsubscribed} />
          <Stat label="Premium" value={data.newsletter.premium} />
          <Stat label="New, 7 days" value={data.newsletter.new_last_7_days} />
          <Stat label="New, 30 days" value={data.newsletter.new_last_30_days} />
        </div>
      </div>

      <div className="card">
        <h2>Premium server performance</h2>
        {data.premium.length === 0 ? (
          <p className="muted">No premium or sponsored servers yet.</p>
        ) : (
          <>
            <div className="bars" aria-hidden="true">
              {data.premium.slice(0, 10).map((p) => {
                const max = Math.max(...data.premium.map((x) => x.daily_revenue), 0.01);
                return (
                  <div className="bar-row" key={p.server_id}>
                    <span className="bar-name">{p.name}</span>
                    <span className="bar" style={{ width: `${(p.daily_revenue / max) * 100}%` }} />
                    <span className="bar-value">{p.daily_revenue.toFixed(2)}</span>
                  </div>
                );
              })}
            </div>
            <div className="table-wrap">
              <table>
                <caption>Premium and sponsored servers by daily revenue (last 30 days)</caption>
                <thead>
                  <tr>
                    <th scope="col">Server</th>
                    <th scope="col">Placement</th>
                    <th scope="col">Views</th>
                    <th scope="col">Clicks</th>
                    <th scope="col">Conversions</th>
                    <th scope="col">Revenue</th>
                    <th scope="col">Daily revenue</th>
                  </tr>
                </thead>
                <tbody>
                  {data.premium.map((p) => (
                    <tr key={p.server_id}>
                      <th scope="row">{p.name}</th>
                      <td>{[p.is_premium && 'premium', p.is_sponsored && 'sponsored'].filter(Boolean).join(', ')}</td>
                      <td>{p.views}</td>
                      <td>{p.clicks}</td>
                      <td>{p.conversions}</td>
                      <td>{p.total_revenue.toFixed(2)}</td>
                      <td>{p.daily_revenue.toFixed(2)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </div>
    </section>
  );
}
