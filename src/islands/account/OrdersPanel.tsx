import { useCallback, useEffect, useState } from 'react';
import { placementDay } from '~/lib/pricing/plans';
import { client, messageOf, parseResponse } from './api';

type Orders = Awaited<ReturnType<typeof ordersOf>>;
const ordersOf = () => parseResponse(client.api.account.orders.$get());

/** What each order state means to its owner. */
const STATE_WORDS: Record<string, string> = {
  open: 'checkout open',
  paid: 'paid',
  expired: 'checkout expired, nothing charged',
  failed: 'payment failed',
  refunded: 'refunded',
  disputed: 'suspended (card dispute)',
  ended: 'ended',
};

const day = (iso: string | null) => (iso ? <time dateTime={iso}>{placementDay(iso)}</time> : null);

/** The owner's placement orders (#30): state, when each runs, and a one-click refund within 30 days. */
export function OrdersPanel() {
  const [data, setData] = useState<Orders | null>(null);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(0);

  const reload = useCallback(
    () =>
      ordersOf()
        .then(setData)
        .catch((err) => setError(messageOf(err))),
    [],
  );
  useEffect(() => {
    void reload();
  }, [reload]);

  const refund = async (id: number, state: string, part: string | null) => {
    const what =
      (part ? `the rest of the price comes back (${part} so far)` : 'the money for this placement comes back') +
      (state === 'ended' ? '' : ' and the placement ends at once');
    const reason = window.prompt(`Ask for a refund: ${what}. A reason (optional):`, '');
    if (reason === null) return;
    setBusy(id);
    setError('');
    try {
      await parseResponse(
        client.api.account.orders[':id'].refund.$post({ param: { id: String(id) }, json: { reason } }),
      );
      setNote('Refunded: the money goes back to your card and the placement has ended. We sent you a mail.');
      await reload();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(0);
    }
  };

  if (!data || data.orders.length === 0) return error ? <p className="alert alert-error">{error}</p> : null;
  return (
    <section aria-labelledby="my-orders">
      <h2 id="my-orders">Placements</h2>
      {note && (
        <p className="alert alert-ok" role="status">
          {note}
        </p>
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <ul className="account-orders">
        {data.orders.map((o) => (
          <li key={o.id} data-order={o.id}>
            <strong>{o.server_name}</strong>: {o.placement === 'sponsored' ? 'Sponsored' : 'Premium'},{' '}
            <span className="nowrap">{o.amount}</span> for <span className="nowrap">{o.term}</span> ·{' '}
            <span data-state={o.state}>
              {o.state === 'open' && !o.checkout_url
                ? 'checkout closed, waiting for Stripe’s word'
                : (STATE_WORDS[o.state] ?? o.state)}
            </span>
            {o.refunded_part ? <> · {o.refunded_part}</> : null}
            {o.state === 'paid' && o.starts_at && o.ends_at ? (
              <>
                {' '}
                · from {day(o.starts_at)} until {day(o.ends_at)}
              </>
            ) : null}
            {o.checkout_url ? (
              <>
                {' '}
                · <a href={o.checkout_url}>Go back to the checkout</a>
              </>
            ) : null}
            {o.refundable ? (
              <>
                {' '}
                <button
                  type="button"
                  className="btn btn-outline"
                  disabled={busy === o.id}
                  onClick={() => void refund(o.id, o.state, o.refunded_part)}
                >
                  Ask for a refund
                </button>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
