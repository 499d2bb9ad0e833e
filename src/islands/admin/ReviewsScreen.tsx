import { useState } from 'react';
import { REVIEW_FLAG_REASONS } from '~/lib/enums';
import { client, idParam, parseResponse } from './api';
import { formatDate, Notices, Pager } from './ui';
import { useList } from './use-list';

const VIEWS = [
  { id: 'flagged', label: 'Flagged' },
  { id: 'held', label: 'Held' },
  { id: 'hidden', label: 'Hidden' },
] as const;
type View = (typeof VIEWS)[number]['id'];

const flagLabel = (value: string) => REVIEW_FLAG_REASONS.find((r) => r.value === value)?.label ?? value;

/**
 * Member reviews for moderators (#31): flagged ones with their flags' reasons, held ones (a burst of
 * new reviews of one listing) and hidden ones with the public reason. Hide (with a public reason;
 * the reviewer is mailed), show (release a held one, or show a hidden one again), dismiss flags.
 * Every action is audited.
 */
export function ReviewsScreen() {
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const list = useList({
    filters: { view: 'flagged' as View },
    // Paged: past the first page every review of a view is a click away (it once stopped at 100).
    perPage: 25,
    load: async ({ view }, paging) => {
      const { reviews, total } = await parseResponse(client.api.admin.reviews.$get({ query: { view, ...paging } }));
      return { rows: reviews, total };
    },
  });
  const rows = list.rows;
  const act = (
    id: number,
    json: { action: 'hide'; reason: string } | { action: 'show' } | { action: 'dismiss_flags' },
    done: string,
  ) => list.run(done, () => client.api.admin.reviews[':id'].$post({ param: idParam({ id }), json }));

  return (
    <section aria-labelledby="reviews-title">
      <h1 id="reviews-title">Reviews</h1>
      <fieldset className="actions">
        <legend className="visually-hidden">Which reviews</legend>
        {VIEWS.map((v) => (
          <button
            type="button"
            key={v.id}
            className="btn btn-small"
            aria-pressed={list.filters.view === v.id}
            onClick={() => list.setFilters({ view: v.id })}
          >
            {v.label}
          </button>
        ))}
      </fieldset>
      <Notices error={list.error} done={list.done} />
      {!rows ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No {list.filters.view} reviews.</p>
      ) : (
        rows.map((r) => (
          <article className="card" key={r.id} aria-labelledby={`review-${r.id}`}>
            <h2 id={`review-${r.id}`}>
              <a href={`/server/${r.server_slug}#reviews`} target="_blank" rel="noopener">
                {r.server_name}
              </a>{' '}
              <span className="muted">
                · {r.rating} of 5 · {r.display_name} · {formatDate(r.created_at)}
              </span>
            </h2>
            <p className="prewrap">{r.body}</p>
            {r.status === 'held' && (
              <p className="muted">
                Held:{' '}
                {r.held_reason === 'burst'
                  ? 'a burst of new reviews of this listing'
                  : r.held_reason === 'after_hide'
                    ? 'its author deleted an earlier review of this listing that moderators had hidden'
                    : r.held_reason}
              </p>
            )}
            {r.status === 'hidden' && (
              <p className="muted">
                Hidden by {r.moderated_by ?? 'a moderator'}: {r.hidden_reason}
              </p>
            )}
            {r.flags.length > 0 && (
              <ul className="report-list">
                {r.flags.map((f) => (
                  <li key={`${f.created_at}-${f.reason}`}>
                    <strong>{flagLabel(f.reason)}</strong> <span className="muted">· {formatDate(f.created_at)}</span>
                    {f.resolved_at ? <span className="muted"> · dealt with</span> : null}
                    {f.details && <p className="prewrap">{f.details}</p>}
                  </li>
                ))}
              </ul>
            )}
            <div className="actions">
              {r.status !== 'hidden' && (
                <>
                  <label>
                    Public reason
                    <input
                      value={reasons[r.id] ?? ''}
                      maxLength={120}
                      placeholder="off-topic"
                      onChange={(e) => setReasons((m) => ({ ...m, [r.id]: e.target.value }))}
                    />
                  </label>
                  <button
                    type="button"
                    className="btn btn-small btn-danger"
                    onClick={() =>
                      act(r.id, { action: 'hide', reason: reasons[r.id] ?? '' }, 'Review hidden; the reviewer is told.')
                    }
                  >
                    Hide
                  </button>
                </>
              )}
              {r.status !== 'shown' && (
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => act(r.id, { action: 'show' }, 'Review shown.')}
                >
                  {r.status === 'held' ? 'Release' : 'Show again'}
                </button>
              )}
              {r.open_flags > 0 && (
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => act(r.id, { action: 'dismiss_flags' }, 'Flags dismissed.')}
                >
                  Dismiss flags
                </button>
              )}
            </div>
          </article>
        ))
      )}
      {list.pager && <Pager {...list.pager} />}
    </section>
  );
}
