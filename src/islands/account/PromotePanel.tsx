import { type SubmitEvent, useState } from 'react';
import { CLAIMS } from '~/lib/claims';
import { PLACEMENT_WHERE, placementDay } from '~/lib/pricing/plans';
import { client, messageOf, parseResponse } from './api';

type Offer = Awaited<ReturnType<typeof offerOf>>;
const offerOf = (id: number) =>
  parseResponse(client.api.account.listings[':id'].promote.$get({ param: { id: String(id) } }));

/**
 * "Promote" for one of the owner's listings (#30): the plans on sale with their price, term, where
 * the placement shows, when a slot would start, and the refund rule; then Stripe Checkout. Only the
 * plan is sent: the server sets the listing, amount and currency.
 */
export function PromotePanel({ listing }: { listing: { id: number; name: string } }) {
  const [offer, setOffer] = useState<Offer | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const load = async () => {
    if (offer) return;
    try {
      setOffer(await offerOf(listing.id));
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const pay = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const planId = Number(new FormData(e.currentTarget).get('plan'));
    if (!planId) {
      setError('Pick a plan.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      const { url } = await parseResponse(
        client.api.account.listings[':id'].checkout.$post({
          param: { id: String(listing.id) },
          json: { plan_id: planId },
        }),
      );
      if (url) window.location.assign(url);
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };

  const headingId = `promote-${listing.id}`;
  return (
    <details className="account-section account-promote" onToggle={(e) => e.currentTarget.open && void load()}>
      <summary>Promote {listing.name}</summary>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      {!offer ? (
        !error && (
          <p className="muted" role="status">
            Loading the plans…
          </p>
        )
      ) : !offer.payments ? (
        <p>
          {CLAIMS.paymentsClosed} <a href="/pricing">Pricing</a>
        </p>
      ) : offer.refused ? (
        <p className="alert alert-error">{offer.refused}</p>
      ) : (
        <form onSubmit={(e) => void pay(e)} aria-labelledby={headingId}>
          <fieldset>
            <legend id={headingId}>Pick a plan</legend>
            {offer.plans.map((p) => (
              <label key={p.id} className="promote-plan">
                <input type="radio" name="plan" value={p.id} required />
                <span>
                  <strong>{p.name}</strong>: <span className="nowrap">{p.price}</span> for{' '}
                  <span className="nowrap">{p.term}</span>, {PLACEMENT_WHERE[p.placement]}.
                  {p.starts_at ? (
                    <span className="muted">
                      {' '}
                      {p.waits_for === 'own'
                        ? `It would follow this listing's current ${p.placement === 'sponsored' ? 'Sponsored' : 'Premium'} term, from `
                        : "This category's Sponsored slots are all taken: it would start on "}
                      <time dateTime={p.starts_at}>{placementDay(p.starts_at)}</time>.
                    </span>
                  ) : null}
                </span>
              </label>
            ))}
          </fieldset>
          <p className="muted">
            {CLAIMS.payments} {CLAIMS.refunds}
          </p>
          <button type="submit" className="btn btn-premium" disabled={busy}>
            {busy ? 'Opening Stripe…' : 'Pay with Stripe'}
          </button>
        </form>
      )}
    </details>
  );
}
