import { useState } from 'react';
import { formatAge } from '~/lib/format';
import { client, idParam, parseResponse } from './api';
import { formatDate, Notices } from './ui';
import { useList } from './use-list';

/**
 * The appeals queue (#32), oldest first: what was decided and why, what the appellant wrote, and
 * the outcome. An appeal of your own decision goes to another moderator when there is one (the API
 * refuses it); the outcome is mailed to the appellant.
 */
export function AppealsScreen() {
  const list = useList({
    filters: {},
    load: async () => ({ rows: (await parseResponse(client.api.admin.appeals.$get())).appeals }),
  });
  const [notes, setNotes] = useState<Record<number, string>>({});
  const decide = async (id: number, outcome: 'upheld' | 'overturned') => {
    // An overturned appeal lifts only its own decision: a later one about the same listing or
    // submission may still stand, and then the screen says so rather than "shown again".
    const answer: { standing: number | null } = { standing: null };
    const ok = await list.run(
      outcome === 'upheld'
        ? 'Decision upheld; the appellant is mailed.'
        : 'Decision overturned; the appellant is mailed.',
      async () => {
        const { appeal } = await parseResponse(
          client.api.admin.appeals[':id'].$post({
            param: idParam({ id }),
            json: { outcome, note: notes[id] || undefined },
          }),
        );
        answer.standing = appeal.standing_decision_id;
      },
    );
    if (ok && answer.standing !== null)
      list.setDone(
        `Decision overturned; the appellant is mailed. A later decision (#${answer.standing}) still stands, so nothing was shown or put back in the queue.`,
      );
  };
  const rows = list.rows;
  return (
    <section aria-labelledby="appeals-title">
      <h1 id="appeals-title">Appeals</h1>
      <Notices error={list.error} done={list.done} />
      {!rows ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No appeals waiting.</p>
      ) : (
        rows.map((a) => (
          <article className="card" key={a.id} aria-labelledby={`appeal-${a.id}`}>
            <h2 id={`appeal-${a.id}`}>
              {a.kind === 'rejection' ? 'Rejected submission' : 'Hidden listing'}: {a.server_name}
            </h2>
            <dl className="facts">
              <dt>Decided</dt>
              <dd>{formatDate(a.decided_at)}</dd>
              <dt>Reasons</dt>
              <dd>
                {a.reasons.join(', ')}
                {a.requirement ? ` (${a.requirement})` : ''}
              </dd>
              {a.note ? (
                <>
                  <dt>Note</dt>
                  <dd className="prewrap">{a.note}</dd>
                </>
              ) : null}
              <dt>Appealed</dt>
              <dd>
                {formatDate(a.appealed_at)} · waiting {formatAge(a.appealed_at!, Date.now())}
              </dd>
            </dl>
            <h3>The appeal</h3>
            <p className="prewrap">{a.appeal_text}</p>
            {a.refused ? (
              <p className="hint" id={`appeal-refused-${a.id}`}>
                {a.refused}
              </p>
            ) : a.decided_by_me ? (
              <p className="hint">You made this decision: no other operator exists, so you decide its appeal.</p>
            ) : null}
            <label>
              Note to the appellant (optional)
              <textarea
                rows={2}
                maxLength={2000}
                value={notes[a.id] ?? ''}
                onChange={(e) => setNotes((n) => ({ ...n, [a.id]: e.target.value }))}
              />
            </label>
            <div className="actions">
              <button
                type="button"
                className="btn"
                disabled={list.busy || a.refused !== null}
                aria-describedby={a.refused ? `appeal-refused-${a.id}` : undefined}
                onClick={() => decide(a.id, 'upheld')}
              >
                Uphold the decision
              </button>
              <button
                type="button"
                className="btn btn-primary"
                disabled={list.busy || a.refused !== null}
                aria-describedby={a.refused ? `appeal-refused-${a.id}` : undefined}
                onClick={() => decide(a.id, 'overturned')}
              >
                Overturn it
              </button>
            </div>
          </article>
        ))
      )}
    </section>
  );
}
