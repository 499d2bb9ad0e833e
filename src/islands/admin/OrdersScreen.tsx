import type { SubmitEvent } from 'react';
import { PLACEMENTS } from '~/lib/enums';
import { formatPrice, REVENUE_DAYS } from '~/lib/pricing/plans';
import { client, idParam, parseResponse } from './api';
import { DataTable, RowButton } from './DataTable';
import { RevenuePerDay } from './RevenuePerDay';
import { formatDate, Notices } from './ui';
import { useList } from './use-list';

/**
 * Orders (#30), admins only: money in minus refunds per day, the plans (edited here, audited; a
 * change applies to new purchases only), a comp (a free grant, audited), and every order with its
 * state, Stripe ids, the events it received, and a refund, 50 a page under the pager.
 */
export function OrdersScreen() {
  // Its list is the orders, paged (it once showed the newest 50 and no way to the rest); the plans
  // and the revenue per day come with each page, so a write reloads all three.
  const list = useList({
    filters: {},
    perPage: 50,
    load: async (_, paging) => {
      const [o, p, r] = await Promise.all([
        parseResponse(client.api.admin.orders.$get({ query: paging })),
        parseResponse(client.api.admin.orders.plans.$get()),
        parseResponse(client.api.admin.orders.revenue.$get()),
      ]);
      return { rows: o.orders, total: o.total, plans: p.plans, revenue: r.days };
    },
  });
  const { plans, revenue } = list.data ?? {};

  /** A write, then the reload; plans, comps and refunds change public pages, so the build bar hears of it. */
  const act = (what: () => Promise<unknown>, message: string) => void list.run(message, what);

  const savePlan = (id: number) => (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const json = {
      name: String(f.get('name')),
      price_cents: Math.round(Number(f.get('price')) * 100),
      term_days: Number(f.get('term_days')),
      active: f.get('active') === 'on',
    };
    act(
      () => parseResponse(client.api.admin.orders.plans[':id'].$patch({ param: { id: String(id) }, json })),
      'Plan saved: new purchases use it; orders already made keep their price and term.',
    );
  };

  const grant = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const note = String(f.get('note') ?? '').trim();
    const json = {
      server_id: Number(f.get('server_id')),
      placement: String(f.get('placement')) as (typeof PLACEMENTS)[number],
      term_days: Number(f.get('term_days')),
      ...(note ? { note } : {}),
    };
    act(() => parseResponse(client.api.admin.orders.comps.$post({ json })), 'Placement granted free of charge.');
  };

  const refund = (id: number) => {
    const reason = window.prompt(
      'Refund this order in full through Stripe? The placement ends at once. Reason (optional):',
    );
    if (reason === null) return;
    act(
      () =>
        parseResponse(
          client.api.admin.orders[':id'].refund.$post({ param: idParam({ id }), json: reason ? { reason } : {} }),
        ),
      `Order ${id} refunded.`,
    );
  };

  type Order = NonNullable<typeof list.rows>[number];
  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title">Orders</h1>
      <Notices error={list.error} done={list.done} />

      <h2>Revenue: money in minus refunds, per day (last {REVENUE_DAYS} days)</h2>
      <RevenuePerDay title="Revenue per day" days={revenue ?? null} />

      <h2>Plans</h2>
      <p className="muted">A change applies to new purchases only, and is audited; /pricing is rebuilt from it.</p>
      {plans?.map((p) => (
        <form key={p.id} className="toolbar" onSubmit={savePlan(p.id)} aria-label={`Plan ${p.name}`}>
          <label>
            Name <input name="name" defaultValue={p.name} required maxLength={80} />
          </label>
          <span>{p.placement}</span>
          <label>
            Price ({p.currency.toUpperCase()}){' '}
            <input name="price" type="number" min="0.5" step="0.01" defaultValue={(p.price_cents / 100).toFixed(2)} />
          </label>
          <label>
            Days <input name="term_days" type="number" min="1" max="366" defaultValue={p.term_days} />
          </label>
          <label>
            <input name="active" type="checkbox" defaultChecked={p.active} /> On sale
          </label>
          <button type="submit" className="btn btn-outline">
            Save
          </button>
        </form>
      ))}

      <h2>Grant a placement free of charge</h2>
      <form className="toolbar" onSubmit={grant} aria-label="Grant a placement">
        <label>
          Listing id <input name="server_id" type="number" min="1" required aria-describedby="comp-listing-hint" />
        </label>
        <label>
          Placement{' '}
          <select name="placement">
            {PLACEMENTS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          Days <input name="term_days" type="number" min="1" max="366" defaultValue={7} required />
        </label>
        <label>
          Note <input name="note" maxLength={500} />
        </label>
        <button type="submit" className="btn btn-outline">
          Grant
        </button>
      </form>
      <p id="comp-listing-hint" className="muted small">
        The Servers screen shows each listing's id beside its address (#12 · /its-slug).
      </p>

      <h2>Orders</h2>
      <DataTable<Order>
        caption="Orders"
        rows={list.rows}
        rowKey={(o) => o.id}
        empty="No orders yet."
        pager={list.pager && { ...list.pager, label: 'Order pages' }}
        columns={[
          { header: 'Order', cell: (o) => `#${o.id}`, rowHeader: true },
          {
            header: 'Listing',
            cell: (o) =>
              o.server_slug === null ? (
                <>
                  {o.server_name} <span className="muted">(deleted)</span>
                </>
              ) : (
                <a href={`/server/${o.server_slug}`}>{o.server_name}</a>
              ),
          },
          { header: 'What', cell: (o) => `${o.kind === 'comp' ? 'comp, ' : ''}${o.placement}, ${o.term_days} days` },
          { header: 'Amount', cell: (o) => formatPrice(o.amount_cents, o.currency) },
          { header: 'State', cell: (o) => o.state },
          {
            header: 'Runs',
            cell: (o) => (o.starts_at ? `${formatDate(o.starts_at)} – ${formatDate(o.ends_at)}` : '—'),
          },
          {
            header: 'Stripe',
            cell: (o) => (
              <>
                {o.stripe_session_id ?? '—'}
                {o.stripe_payment_intent ? <br /> : null}
                {o.stripe_payment_intent}
              </>
            ),
          },
          {
            header: 'Events',
            cell: (o) =>
              o.events.length === 0
                ? '—'
                : o.events.map((e) => (
                    <div key={e.id}>
                      {e.type} → {e.outcome ?? '—'}
                    </div>
                  )),
          },
          {
            header: 'Refunded',
            // A partial refund (in Stripe's dashboard) leaves the placement running; Refund gives back the rest.
            cell: (o) =>
              !o.refunded_at
                ? '—'
                : o.refunded_cents < o.amount_cents
                  ? `${formatPrice(o.refunded_cents, o.currency)} of ${formatPrice(o.amount_cents, o.currency)} (partial; the placement runs on), last ${formatDate(o.refunded_at)}`
                  : `${formatPrice(o.refunded_cents, o.currency)} ${formatDate(o.refunded_at)}`,
          },
        ]}
        actions={(o) =>
          o.kind === 'checkout' && ['paid', 'ended', 'disputed'].includes(o.state) ? (
            <RowButton label="Refund" target={`order ${o.id}`} danger onClick={() => refund(o.id)} />
          ) : null
        }
      />
    </section>
  );
}
