import { type ReactNode, useMemo } from 'react';
import { formatPrice, REVENUE_DAYS } from '~/lib/pricing/plans';
import { client, parseResponse } from './api';
import { Chart } from './Chart';
import { DataTable } from './DataTable';
import { subscriberStats } from './NewsletterScreen';
import { netSince, RevenuePerDay } from './RevenuePerDay';
import { formatDate, Notice, Stats } from './ui';
import { useList } from './use-list';

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

/** The 7-day funnel, revenue per day, queues, newsletter figures and premium performance. */
export function DashboardScreen() {
  // Its list is the premium servers' performance; the rest are figures around it.
  const list = useList({
    filters: {},
    load: async () => {
      const { premium, ...figures } = await parseResponse(client.api.admin.dashboard.$get());
      return { rows: premium, ...figures };
    },
  });
  const data = list.data;

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

  if (list.error) return <Notice>{list.error}</Notice>;
  if (!data) return <p className="muted">Loading the dashboard…</p>;
  const premium = data.rows;

  return (
    <section aria-labelledby="dash-title">
      <h1 id="dash-title">Dashboard</h1>
      <h2>{windowTitle(data.window)}</h2>
      <Stats
        items={[
          ['Views', data.funnel.views],
          ['Clicks', data.funnel.clicks],
          ['Signups', data.funnel.signups],
          ['Conversions', data.funnel.conversions],
          ['Worth of actions', data.totals.worth.toFixed(2)],
          // Money: paid orders minus refunds over the same UTC days (today and the 6 before).
          ['Revenue', netSince(data.revenue, data.window.from)],
        ]}
      />
      <DataTable
        caption="Each action once, at its worth (a join click 1, 5 premium; a signup 2; a premium call-to-action click 10; the same 7 UTC days)"
        captionVisible
        rows={ACTION_ROWS}
        rowKey={([kind]) => kind}
        columns={[
          { header: 'Action', rowHeader: true, cell: ([, label]) => label },
          { header: 'Count', cell: ([kind]) => data.totals.counts[kind].toLocaleString() },
          { header: 'Worth', cell: ([kind]) => data.totals.values[kind].toFixed(2) },
        ]}
      />
      <Chart
        title="Funnel per UTC day (the same 7 days: each tile above is the sum of its bars)"
        labels={labels}
        series={series}
      />

      <h2>Revenue: money in minus refunds, per day (last {REVENUE_DAYS} days)</h2>
      <RevenuePerDay title="Revenue per day" days={data.revenue} />

      <div className="grid-2">
        <Panel
          title="Pending submissions (the 5 waiting longest)"
          href="#submissions"
          stats={[
            ['Pending', data.submissions.pending],
            ['Under review', data.submissions.under_review],
            ['Approved', data.submissions.approved],
            ['Rejected', data.submissions.rejected],
          ]}
        >
          <Summary
            items={data.pending.map((s) => ({
              key: s.id,
              name: s.server_name,
              about: `${s.category} · ${formatDate(s.created_at)}`,
            }))}
            empty="Nothing waiting."
          />
        </Panel>
        <Panel title="Open reports" href="#reports" stats={[['Open', data.openReports.total]]}>
          <Summary
            items={data.openReports.byServer.map((g) => ({
              key: g.server_id,
              name: g.name ?? `Server #${g.server_id}`,
              about: `${g.open} open · latest ${formatDate(g.latest_at)}`,
            }))}
            empty="No open reports."
          />
        </Panel>
      </div>

      <Panel title="Newsletter" href="#newsletter" stats={subscriberStats(data.newsletter, 'Subscribers')} />

      <div className="card">
        <h2>Premium server performance</h2>
        {premium.length === 0 ? (
          <p className="muted">No premium or sponsored servers yet.</p>
        ) : (
          <DataTable
            caption="Premium and sponsored servers: traffic, and revenue per currency (money in minus refunds; per day over the last 30 days)"
            captionVisible
            rows={premium}
            rowKey={(p) => p.server_id}
            columns={[
              { header: 'Server', rowHeader: true, cell: (p) => p.name },
              {
                header: 'Placement',
                cell: (p) => [p.is_premium && 'premium', p.is_sponsored && 'sponsored'].filter(Boolean).join(', '),
              },
              { header: 'Views', cell: (p) => p.views },
              { header: 'Clicks', cell: (p) => p.clicks },
              { header: 'Conversions', cell: (p) => p.conversions },
              { header: 'Revenue', cell: (p) => moneyPerCurrency(p.revenue, 'total_cents') },
              { header: 'Daily revenue', cell: (p) => moneyPerCurrency(p.revenue, 'daily_cents') },
            ]}
          />
        )}
      </div>
    </section>
  );
}

/**
 * What the 7-day figures cover, named so an operator can tell: UTC calendar days from 00:00 of
 * the first, today included (not 7 × 24 hours back), the chart's days.
 */
export function windowTitle(w: { from: string; to: string; days: number }): string {
  return `Last ${w.days} days: ${w.from} to ${w.to} (UTC calendar days, today included)`;
}

/** One currency's money of a premium listing (listPremiumPerformance), in its smallest unit. */
interface PremiumRevenue {
  currency: string;
  total_cents: number;
  daily_cents: number;
}

/** One sum per currency ("$79.00 · ¥500"), never one figure across currencies; "—" without money. */
function moneyPerCurrency(revenue: readonly PremiumRevenue[], figure: 'total_cents' | 'daily_cents'): string {
  return revenue.length ? revenue.map((r) => formatPrice(r[figure], r.currency)).join(' · ') : '—';
}

/** A dashboard card titled with a link to its screen, its figures, then what it lists. */
function Panel({
  title,
  href,
  stats,
  children,
}: {
  title: string;
  href: string;
  stats: [label: string, value: number | string][];
  children?: ReactNode;
}) {
  return (
    <div className="card">
      <h2>
        <a href={href}>{title}</a>
      </h2>
      <Stats items={stats} />
      {children}
    </div>
  );
}

/** A short list of names with a muted line each, or what an empty one says. */
function Summary({ items, empty }: { items: { key: number; name: string; about: string }[]; empty: string }) {
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="plain-list">
      {items.map((i) => (
        <li key={i.key}>
          <strong>{i.name}</strong> <span className="muted">· {i.about}</span>
        </li>
      ))}
    </ul>
  );
}
