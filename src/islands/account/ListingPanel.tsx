import { type ReactNode, type SubmitEvent, useState } from 'react';
import { subcategoryNames } from '~/lib/categories';
import { LINK_LABEL_MAX, LINKS_MAX } from '~/lib/links';
import { listingState, OWNER_LISTING_STATE_LABELS } from '~/lib/owners/listing-state';
import { type ListingEditInput, listingEditSchema } from '~/lib/schemas/owner';
import { ApiCallError, client, messageOf, parseResponse } from './api';
import { ListingEmbeds } from './ListingEmbeds';
import { ListingNumbers } from './ListingNumbers';

type Listing = Awaited<ReturnType<typeof listingsOf>>['listings'][number];
const listingsOf = () => parseResponse(client.api.account.listings.$get());

/** The words of a field in an edit's summary. */
const FIELD_NAMES: Record<string, string> = {
  description: 'description',
  tags: 'tags',
  features: 'features',
  subcategory: 'subcategory',
  links: 'links',
};

/** The first message of each refused field, from the API's issues or the shared schema's. */
const fieldMessages = (issues: readonly { path: string; message: string }[]): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const [field, index] = i.path.split('.');
    // A link's message says which row it is about.
    out[field!] ??= field === 'links' && index !== undefined ? `Link ${Number(index) + 1}: ${i.message}` : i.message;
  }
  return out;
};

/** One of the owner's listings: its state, an edit for review, a new invite, its numbers, removal. */
export function ListingPanel({
  listing,
  onChanged,
  children,
}: {
  listing: Listing;
  onChanged: () => Promise<void>;
  /** More parts of the same card, after its own (the Promote panel). */
  children?: ReactNode;
}) {
  const state = listingState(listing);
  const subcategories = subcategoryNames(listing.category);
  const param = { id: String(listing.id) };
  const [editNote, setEditNote] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [editErrors, setEditErrors] = useState<Record<string, string>>({});
  const [inviteNote, setInviteNote] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  // Why a removal was refused, beside its button (the edit's note sits in a section that may be closed).
  const [removeError, setRemoveError] = useState('');
  const [busy, setBusy] = useState(false);
  const headingId = `listing-${listing.id}`;

  const sendEdit = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const lines = (name: string, split: RegExp) =>
      String(form.get(name) ?? '')
        .split(split)
        .map((v) => v.trim())
        .filter(Boolean);
    const json: ListingEditInput = {
      description: String(form.get('description') ?? ''),
      tags: lines('tags', /,/),
      features: lines('features', /\n/),
      ...(subcategories.length > 0 ? { subcategory: String(form.get('subcategory') ?? '') || null } : {}),
      // The rows filled in, in order; a row left empty is no link.
      links: Array.from({ length: LINKS_MAX }, (_, i) => ({
        label: String(form.get(`link-label-${i}`) ?? '').trim(),
        url: String(form.get(`link-url-${i}`) ?? '').trim(),
      })).filter((l) => l.label || l.url),
    };
    // The rules the server applies, checked here first (the same schema).
    const checked = listingEditSchema.safeParse(json);
    if (!checked.success) {
      setEditErrors(fieldMessages(checked.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))));
      setEditNote({ kind: 'error', text: 'Please check the fields marked above.' });
      return;
    }
    setBusy(true);
    try {
      await client.api.account.listings[':id'].edits.$post({ param, json });
      setEditErrors({});
      setEditNote({ kind: 'ok', text: 'Sent for review. The listing changes once a moderator approves the edit.' });
      await onChanged();
    } catch (err) {
      setEditErrors(fieldMessages(err instanceof ApiCallError ? err.issues : []));
      setEditNote({ kind: 'error', text: messageOf(err) });
    } finally {
      setBusy(false);
    }
  };

  const replaceInvite = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const invite_link = String(new FormData(e.currentTarget).get('invite_link') ?? '');
    setBusy(true);
    try {
      await client.api.account.listings[':id'].invite.$post({ param, json: { invite_link } });
      setInviteNote({
        kind: 'ok',
        text: 'Discord confirmed the invite: the Join button uses it from the next update of the site.',
      });
      await onChanged();
    } catch (err) {
      setInviteNote({ kind: 'error', text: messageOf(err) });
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!window.confirm(`Remove “${listing.name}” from the directory? Its page and history go for good.`)) return;
    setBusy(true);
    setRemoveError('');
    try {
      await client.api.account.listings[':id'].$delete({ param });
      await onChanged();
    } catch (err) {
      setRemoveError(messageOf(err));
      setBusy(false);
    }
  };

  const pendingFields = Object.keys(listing.pending_edit?.changes ?? {}).map((f) => FIELD_NAMES[f] ?? f);
  return (
    <article className="account-listing" aria-labelledby={headingId}>
      <header className="account-listing-head">
        <h3 id={headingId}>{listing.name}</h3>
        <span className={`state state-${state}`}>{OWNER_LISTING_STATE_LABELS[state]}</span>
      </header>
      <p className="muted">
        {listing.category}
        {listing.subcategory ? ` · ${listing.subcategory}` : ''} · {listing.members.toLocaleString('en-US')} members ·{' '}
        {listing.proof === 'owner' ? 'you own this server on Discord' : 'you can manage this server on Discord'}
        {state !== 'hidden' && (
          <>
            {' · '}
            <a href={`/server/${listing.slug}`}>View the page</a>
          </>
        )}
      </p>
      {state === 'invite_problem' && (
        <p className="alert alert-error">
          Discord reports a problem with this listing's invite ({listing.invite_status.replace('_', ' ')}). Replace it
          below: a working invite puts the listing back at once.
        </p>
      )}
      {state === 'hidden' && (
        <p className="alert alert-error">A moderator has hidden this listing. Contact us to ask why.</p>
      )}
      {listing.pending_edit && (
        <p className="alert alert-ok" role="status">
          An edit of the {pendingFields.join(', ')} is waiting for review.
        </p>
      )}

      <details className="account-section">
        <summary>Edit the listing</summary>
        <form className="form" onSubmit={(e) => void sendEdit(e)} aria-label={`Edit ${listing.name}`}>
          <div className="field">
            <label htmlFor={`desc-${listing.id}`}>Description</label>
            <textarea
              id={`desc-${listing.id}`}
              name="description"
              defaultValue={listing.description}
              minLength={20}
              maxLength={2000}
              required
              aria-invalid={editErrors.description ? true : undefined}
            />
            {editErrors.description && <p className="field-error">{editErrors.description}</p>}
          </div>
          <div className="field">
            <label htmlFor={`tags-${listing.id}`}>Tags</label>
            <input id={`tags-${listing.id}`} name="tags" defaultValue={listing.tags.join(', ')} />
            <p className="hint">Separated by commas, at most 12.</p>
            {editErrors.tags && <p className="field-error">{editErrors.tags}</p>}
          </div>
          <div className="field">
            <label htmlFor={`features-${listing.id}`}>Features</label>
            <textarea id={`features-${listing.id}`} name="features" defaultValue={listing.features.join('\n')} />
            <p className="hint">One per line, at most 20.</p>
            {editErrors.features && <p className="field-error">{editErrors.features}</p>}
          </div>
          {subcategories.length > 0 && (
            <div className="field">
              <label htmlFor={`sub-${listing.id}`}>Subcategory</label>
              <select id={`sub-${listing.id}`} name="subcategory" defaultValue={listing.subcategory ?? ''}>
                <option value="">None</option>
                {subcategories.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
              {editErrors.subcategory && <p className="field-error">{editErrors.subcategory}</p>}
            </div>
          )}
          <fieldset className="field account-links" aria-describedby={`links-hint-${listing.id}`}>
            <legend>Links</legend>
            <p className="hint" id={`links-hint-${listing.id}`}>
              Your website or socials, shown on the listing's page with their address. At most {LINKS_MAX}, each a full
              https:// address.
            </p>
            {Array.from({ length: LINKS_MAX }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed set of rows, one per position.
              <div className="account-link-row" key={i}>
                <div>
                  <label htmlFor={`link-label-${listing.id}-${i}`}>Link {i + 1} label</label>
                  <input
                    id={`link-label-${listing.id}-${i}`}
                    name={`link-label-${i}`}
                    defaultValue={listing.links[i]?.label ?? ''}
                    maxLength={LINK_LABEL_MAX}
                    placeholder={i === 0 ? 'Website' : undefined}
                  />
                </div>
                <div>
                  <label htmlFor={`link-url-${listing.id}-${i}`}>Link {i + 1} address</label>
                  <input
                    id={`link-url-${listing.id}-${i}`}
                    name={`link-url-${i}`}
                    type="url"
                    inputMode="url"
                    defaultValue={listing.links[i]?.url ?? ''}
                    maxLength={2048}
                    placeholder={i === 0 ? 'https://example.com' : undefined}
                  />
                </div>
              </div>
            ))}
            {editErrors.links && <p className="field-error">{editErrors.links}</p>}
          </fieldset>
          {editNote && (
            <p className={`alert alert-${editNote.kind}`} role={editNote.kind === 'error' ? 'alert' : 'status'}>
              {editNote.text}
            </p>
          )}
          <div>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Send for review
            </button>
          </div>
        </form>
      </details>

      <details className="account-section" open={state === 'invite_problem'}>
        <summary>Replace the invite</summary>
        <form
          className="form"
          onSubmit={(e) => void replaceInvite(e)}
          aria-label={`Replace the invite of ${listing.name}`}
        >
          <div className="field">
            <label htmlFor={`invite-${listing.id}`}>New invite link</label>
            <input
              id={`invite-${listing.id}`}
              name="invite_link"
              inputMode="url"
              placeholder="https://discord.gg/abc123"
              required
              maxLength={200}
            />
            <p className="hint">
              Now: {listing.affiliate_link ?? 'none'}. Checked with Discord at once: it must open this server and never
              expire.
            </p>
          </div>
          {inviteNote && (
            <p className={`alert alert-${inviteNote.kind}`} role={inviteNote.kind === 'error' ? 'alert' : 'status'}>
              {inviteNote.text}
            </p>
          )}
          <div>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Check and replace
            </button>
          </div>
        </form>
      </details>

      <ListingNumbers id={listing.id} name={listing.name} />
      <ListingEmbeds id={listing.id} name={listing.name} slug={listing.slug} />

      <div>
        <button type="button" className="btn btn-outline account-remove" disabled={busy} onClick={() => void remove()}>
          Remove this listing
        </button>
      </div>
      {removeError && (
        <p className="alert alert-error" role="alert">
          {removeError}
        </p>
      )}
      {children}
    </article>
  );
}
