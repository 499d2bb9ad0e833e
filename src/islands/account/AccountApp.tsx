import { useCallback, useEffect, useState } from 'react';
import { OWNER_LISTING_STATE_LABELS } from '~/lib/owners/listing-state';
import { SIGN_IN_ERRORS, SIGN_IN_NOT_CONFIGURED } from '~/lib/owners/sign-in';
import { client, messageOf, parseResponse, setCsrfToken } from './api';
import { ListingPanel } from './ListingPanel';
import { OrdersPanel } from './OrdersPanel';
import { PromotePanel } from './PromotePanel';
import { ReviewsPanel } from './ReviewsPanel';
import { WebhookPanel } from './WebhookPanel';

type Me = Awaited<ReturnType<typeof loadMe>>;
const loadMe = () => parseResponse(client.api.account.me.$get());
type Listings = Awaited<ReturnType<typeof loadListings>>;
const loadListings = () => parseResponse(client.api.account.listings.$get());

/**
 * The owner's page (/account): sign in with Discord, then the listings Discord's guild list proves
 * theirs (claimed at sign-in) with their state, an edit for review, a replaced invite, removal and
 * their numbers; submissions still in review; sign out; delete the account.
 */
export default function AccountApp() {
  const [me, setMe] = useState<Me | null>(null);
  const [data, setData] = useState<Listings | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');
  const params = typeof window === 'undefined' ? new URLSearchParams() : new URLSearchParams(window.location.search);
  const signInError = SIGN_IN_ERRORS[params.get('error') ?? ''];

  const reload = useCallback(async () => {
    try {
      setData(await loadListings());
    } catch (err) {
      setError(messageOf(err));
    }
  }, []);

  useEffect(() => {
    loadMe()
      .then((m) => {
        setCsrfToken(m.csrfToken);
        setMe(m);
        if (m.owner) void reload();
      })
      .catch((err) => setError(messageOf(err)));
  }, [reload]);

  const deleteAccount = async () => {
    if (
      !window.confirm(
        'Delete your account? Your sign-in, claims, reviews, replies and edits waiting for review are deleted. Your public listings stay, unclaimed.',
      )
    )
      return;
    try {
      await client.api.account.$delete();
      setMe((m) => (m ? { ...m, owner: null, csrfToken: null } : m));
      setData(null);
      setDone('Your account is deleted. Your listings stay on the directory, unclaimed.');
    } catch (err) {
      setError(messageOf(err));
    }
  };

  if (!me)
    return (
      <p className="muted" role="status">
        {error || 'Loading your account…'}
      </p>
    );

  if (!me.owner)
    return (
      <section className="account-panel" aria-labelledby="sign-in-title">
        <h2 id="sign-in-title">Sign in with Discord</h2>
        {done && (
          <p className="alert alert-ok" role="status">
            {done}
          </p>
        )}
        {params.has('signed_out') && !done && (
          <p className="alert alert-ok" role="status">
            You are signed out.
          </p>
        )}
        {signInError && (
          <p className="alert alert-error" role="alert">
            {signInError}
          </p>
        )}
        <p>
          One sign-in for everyone: see and edit your reviews, and if you own a listed server (or have the Manage Server
          permission in it), manage its listing. We read your Discord name and the list of servers you are in (to see
          which listings are yours), never your messages. Reviewing a server also asks Discord when you joined it.
        </p>
        {me.configured ? (
          <a className="btn btn-primary" href="/api/account/sign-in">
            Sign in with Discord
          </a>
        ) : (
          <p className="alert alert-error">{SIGN_IN_NOT_CONFIGURED}</p>
        )}
      </section>
    );

  const listings = data?.listings ?? [];
  const pending = data?.pending ?? [];
  return (
    <div className="account">
      <div className="account-who">
        <p>
          Signed in with Discord as <strong>{me.owner.global_name || me.owner.username}</strong>
        </p>
        <form method="post" action="/api/account/sign-out">
          <button type="submit" className="btn btn-outline">
            Sign out
          </button>
        </form>
      </div>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}

      {/* "My listings" only for those who claim a listing or have one in review (#31: one sign-in for everyone). */}
      {me.owner.has_listings || pending.length > 0 ? (
        <section aria-labelledby="my-listings">
          <h2 id="my-listings">My listings</h2>
          {!data ? (
            <p className="muted" role="status">
              Loading your listings…
            </p>
          ) : listings.length === 0 ? (
            <p className="muted">
              No listing is yours yet. A listing is yours when Discord shows you as its server's owner, or with the
              Manage Server permission there; we check at every sign-in. <a href="/submit-server">Submit your server</a>{' '}
              while signed in and it is yours once approved.
            </p>
          ) : (
            listings.map((listing) => (
              // One card a listing: Promote is its last part (a wrapping card put the card in a second one).
              <ListingPanel key={listing.id} listing={listing} onChanged={reload}>
                <PromotePanel listing={listing} />
              </ListingPanel>
            ))
          )}
        </section>
      ) : null}

      {me.owner.has_listings ? <OrdersPanel /> : null}
      {me.owner.has_listings ? <WebhookPanel /> : null}

      <ReviewsPanel owner={me.owner.has_listings} />

      {pending.length > 0 && (
        <section aria-labelledby="in-review">
          <h2 id="in-review">Waiting for review</h2>
          <ul className="account-pending">
            {pending.map((s) => (
              <li key={s.id}>
                <strong>{s.server_name}</strong> ({s.category}) · {OWNER_LISTING_STATE_LABELS.pending} ·{' '}
                {s.owner_verified ? 'verified owner' : 'ownership not verified'}
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="account-danger" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete my account</h2>
        <p>
          Deletes your sign-in, your claims, your reviews and replies, and any edit still waiting for review. Your
          public listings stay on the directory, unclaimed.
        </p>
        <button type="button" className="btn btn-danger" onClick={() => void deleteAccount()}>
          Delete my account
        </button>
      </section>
    </div>
  );
}
