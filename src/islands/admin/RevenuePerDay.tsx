import { useMemo } from 'react';
import { formatPrice } from '~/lib/pricing/plans';
import { Chart } from './Chart';
import { DataTable } from './DataTable';

/** One UTC day's money of one currency (the daily_revenue view, revenueByDay in db/queries/orders.ts). */
export interface RevenueDay {
  day: string;
  currency: string;
  paid_cents: number;
  refunded_cents: number;
  net_cents: number;
}

/** Line colours of the net series, one per currency in the order they first appear. */
const COLORS = ['#16a34a', '#6366f1', '#d97706', '#0891b2'];

/** Net money in minus refunds of `days` since the UTC day `since` (YYYY-MM-DD), per currency: "$49.00", or "0" without any. */
export function netSince(days: readonly RevenueDay[], since: string): string {
  const byCurrency = new Map<string, number>();
  for (const d of days) {
    if (d.day >= since) byCurrency.set(d.currency, (byCurrency.get(d.currency) ?? 0) + d.net_cents);
  }
  if (byCurrency.size === 0) return '0';
  return [...byCurrency].map(([currency, cents]) => formatPrice(cents, currency)).join(' · ');
}

/**
 * Revenue per day (#30): money in minus refunds per UTC day, as a chart of the net per currency
 * (in the currency's unit) and the exact figures beneath it. The console's Dashboard and Orders
 * screens both show it, from the same query.
 */
export function RevenuePerDay({ days, title }: { days: readonly RevenueDay[] | null; title: string }) {
  const labels = useMemo(() => [...new Set((days ?? []).map((d) => d.day))].sort(), [days]);
  const series = useMemo(() => {
    const currencies = [...new Set((days ?? []).map((d) => d.currency))];
    return currencies.map((currency, i) => {
      const net = new Map((days ?? []).filter((d) => d.currency === currency).map((d) => [d.day, d.net_cents]));
      return {
        label: `Net (${currency.toUpperCase()})`,
        values: labels.map((day) => (net.get(day) ?? 0) / 100),
        color: COLORS[i % COLORS.length]!,
      };
    });
  }, [days, labels]);
  return (
    <>
      <Chart title={title} labels={labels} series={series} />
      <DataTable
        caption={`${title}: paid, refunded and net`}
        rows={days}
        rowKey={(d) => `${d.day}-${d.currency}`}
        empty="No payments yet."
        columns={[
          { header: 'Day', cell: (d) => d.day, rowHeader: true },
          { header: 'Paid', cell: (d) => formatPrice(d.paid_cents, d.currency) },
          { header: 'Refunded', cell: (d) => formatPrice(d.refunded_cents, d.currency) },
          { header: 'Net', cell: (d) => formatPrice(d.net_cents, d.currency) },
        ]}
      />
    </>
  );
}
