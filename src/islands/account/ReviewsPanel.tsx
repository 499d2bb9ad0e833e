import { useCallback, useEffect, useRef, useState } from 'react';
import { reviewDate } from '~/lib/reviews/eligibility';
import { DELETE_QUESTIONS } from '~/lib/reviews/form';
import { client, messageOf, parseResponse } from './api';
import { ConfirmDelete } from './ConfirmDelete';

type Data = Awaited<ReturnType<typeof loadReviews>>;
const loadReviews = () => parseResponse(client.api.account.reviews.$get());
type Settings = Awaited<ReturnType<typeof loadSettings>>;
const loadSettings = () => parseResponse(client.api.account.settings.$get());

const STATUS_LABELS = { shown: 'published', held: 'held for review', hidden: 'hidden by moderators' } as const;
const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(5 - n);
const day = (iso: string) => reviewDate(Date.parse(iso));

/** An owner's reply to one review of their listing: publish, edit or delete it. */
function ReplyForm({ reviewId, current, onDone }: { reviewId: number; current: string | null; onDone: () => void }) {
  const [message, setMessage] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  const send = async (form: HTMLFormElement) => {
    const body = String(new FormData(form).get('reply') ?? '');
    try {
      await parseResponse(client.api.reviews[':id'].reply.$put({ param: { id: String(reviewId) }, json: { body } }));
      setMessage('Your reply is published.');
      onDone();
    } catch (err) {
      setMessage(messageOf(err));
    }
  };
  // Asked first (ConfirmDelete); once deleted, the emptied reply box takes the focus, not the page.
  const remove = async () => {
    try {
      await parseResponse(client.api.reviews[':id'].reply.$delete({ param: { id: String(reviewId) } }));
      setMessage('Your reply is deleted.');
      if (area.current) {
        area.current.value = '';
        area.current.focus();
      }
      onDone();
      return true;
    } catch (err) {
      setMessage(messageOf(err));
      return false;
    }
  };
  return (
    <form
      className="review-form"
      onSubmit={(e) => {
        e.preventDefault();
        void send(e.currentTarget);
      }}
    >
      <label>
        {current ? 'Edit your reply' : 'Reply as the owner'}
        <textarea ref={area} name="reply" rows={3} maxLength={2000} defaultValue={current ?? ''} required />
      </label>
      <div className="review-actions">
        <button type="submit" className="btn btn-primary">
          {current ? 'Save reply' : 'Publish reply'}
        </button>
        {current ? <ConfirmDelete label="Delete reply" question={DELETE_QUESTIONS.reply} onDelete={remove} /> : null}
      </div>
      {message ? <p role="status">{message}</p> : null}
    </form>
  );
}

/** The mail settings: the address the site may mail, and whether new reviews of one's listings are mailed. */
function MailSettings({ settings, onSaved }: { settings: Settings; onSaved: (s: Settings) => void }) {
  const [message, setMessage] = useState('');
  const save = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    try {
      const saved = await parseResponse(
        client.api.account.settings.$put({
          json: { email: String(data.get('email') ?? ''), mail_new_reviews: data.get('mail_new_reviews') === 'on' },
        }),
      );
      onSaved(saved);
      setMessage('Saved.');
    } catch (err) {
      setMessage(messageOf(err));
    }
  };
  return (
    <section aria-labelledby="mail-settings">
      <h2 id="mail-settings">Mail settings</h2>
      <form
        className="review-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save(e.currentTarget);
        }}
      >
        <label>
          Mail me at (replies to my reviews, a hidden review, new reviews of my listings)
          <input type="email" name="email" maxLength={254} defaultValue={settings.email ?? ''} autoComplete="email" />
        </label>
        <label className="check">
          <input type="checkbox" name="mail_new_reviews" defaultChecked={settings.mail_new_reviews} />
          <span>Mail me when a new review of a listing I own shows</span>
        </label>
        <p>
          <button type="submit" className="btn btn-primary">
            Save mail settings
          </button>
        </p>
        {message ? <p role="status">{message}</p> : null}
      </form>
    </section>
  );
}

/** "My reviews" on /account (#31): the person's reviews and replies, the reviews of listings they own, and mail settings. */
export function ReviewsPanel({ owner }: { owner: boolean }) {
  const [data, setData] = useState<Data | null>(null);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState('');
  const reload = useCallback(async () => {
    try {
      const [d, s] = await Promise.all([loadReviews(), loadSettings()]);
      setData(d);
      setSettings(s);
    } catch (err) {
      setError(messageOf(err));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  if (error)
    return (
      <p className="alert alert-error" role="alert">
        {error}
      </p>
    );
  if (!data || !settings)
    return (
      <p className="muted" role="status">
        Loading your reviews…
      </p>
    );
  return (
    <>
      <section aria-labelledby="my-reviews">
        <h2 id="my-reviews">My reviews</h2>
        {data.reviews.length === 0 ? (
          <p className="muted">
            You have not reviewed a server yet. Open the page of a server you have been a member of for a while and
            press Write a review.
          </p>
        ) : (
          <ul className="review-list">
            {data.reviews.map((r) => (
              <li key={r.id} className="review">
                <p className="review-head">
                  <a href={`/server/${r.server_slug}#reviews`}>{r.server_name}</a>
                  <span className="review-stars" role="img" aria-label={`${r.rating} of 5 stars`}>
                    {stars(r.rating)}
                  </span>
                  <span className="muted">
                    {STATUS_LABELS[r.status]}
                    {r.status === 'hidden' && r.hidden_reason ? `: ${r.hidden_reason}` : ''} · {day(r.created_at)}
                    {r.edited_at ? ' · edited' : ''}
                  </span>
                </p>
                <p className="review-body">{r.body}</p>
                {r.reply ? (
                  <div className="review-reply">
                    <p>
                      <strong>Reply from the owner</strong>
                    </p>
                    <p>{r.reply}</p>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {data.replies.length > 0 ? (
          <>
            <h3>My replies</h3>
            <ul className="review-list">
              {data.replies.map((r) => (
                <li key={r.review_id} className="review">
                  <p className="review-head">
                    <a href={`/server/${r.server_slug}#reviews`}>{r.server_name}</a>
                    <span className="muted">to {r.reviewer}</span>
                  </p>
                  <p className="review-body">{r.body}</p>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
      {owner ? (
        <section aria-labelledby="listing-reviews">
          <h2 id="listing-reviews">Reviews of my listings</h2>
          {data.received.length === 0 ? (
            <p className="muted">No member has reviewed your listings yet.</p>
          ) : (
            <ul className="review-list">
              {data.received.map((r) => (
                <li key={r.id} className="review">
                  <p className="review-head">
                    <a href={`/server/${r.server.slug}#reviews`}>{r.server.name}</a>
                    <span className="review-stars" role="img" aria-label={`${r.rating} of 5 stars`}>
                      {stars(r.rating)}
                    </span>
                    <strong>{r.display_name}</strong>
                    <span className="muted">{day(r.created_at)}</span>
                  </p>
                  <p className="review-body">{r.body}</p>
                  <ReplyForm reviewId={r.id} current={r.reply?.body ?? null} onDone={() => void reload()} />
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      <MailSettings settings={settings} onSaved={setSettings} />
    </>
  );
}
