import { useState } from 'react';
import { subcategoryNames } from '~/lib/categories';
import { SUBMISSION_STATUSES, type SubmissionStatus } from '~/lib/enums';
import { formatAge } from '~/lib/format';
import { languageLabel } from '~/lib/languages';
import { regionName } from '~/lib/regions';
import { highlight, type RequirementFlag } from '~/lib/requirements';
import { isSafeImageSrc } from '~/lib/url-safety';
import { LanguageRegionFields } from '../RegionFields';
import { client, idParam, parseResponse } from './api';
import { DataTable, RowButton } from './DataTable';
import { OwnerEdits } from './OwnerEdits';
import { NO_REASONS, type PickedReasons, ReasonPicker, reasonsBody } from './ReasonPicker';
import { ReviewPanel } from './ReviewPanel';
import { Badge, FilterSelect, formatDate, Notices, Stats } from './ui';
import { useList } from './use-list';

const statusText = (status: string) => status.replace('_', ' ');
/** The review's other outcomes, beside approval. */
const REVIEW_STEPS = [
  ['under_review', 'Mark under review'],
  ['rejected', 'Reject'],
] as const;

/** The submissions queue: filter, stats, detail, review notes, approve, reject, delete. */
export function SubmissionsScreen() {
  const list = useList({
    // Oldest first by default (#32): whoever has waited longest is reviewed first.
    filters: { status: 'pending' as SubmissionStatus | '', sort: 'oldest' as 'oldest' | 'newest' | '' },
    perPage: 20,
    load: async (filters, paging) => {
      const [{ submissions, total }, stats] = await Promise.all([
        parseResponse(
          client.api.admin.submissions.$get({
            query: { ...filters, sort: filters.sort || 'oldest', ...paging },
          }),
        ),
        parseResponse(client.api.admin.submissions.stats.$get()),
      ]);
      return { rows: submissions, total, stats };
    },
  });
  type Submission = NonNullable<typeof list.rows>[number];
  const [selected, setSelected] = useState<Submission | null>(null);
  const [notes, setNotes] = useState('');
  const [subcategory, setSubcategory] = useState('');
  const [language, setLanguage] = useState('');
  const [region, setRegion] = useState('');
  const [picked, setPicked] = useState<PickedReasons>(NO_REASONS);
  const { busy, setDone, setError } = list;

  const open = (s: Submission) => {
    setSelected(s);
    setNotes(s.admin_notes ?? '');
    setSubcategory(s.subcategory ?? '');
    setLanguage(s.language ?? '');
    setRegion(s.region ?? '');
    setPicked(NO_REASONS);
    setDone('');
    setError('');
  };

  const act = (label: string, write: () => Promise<unknown>) =>
    list.run(label, async () => {
      await write();
      setSelected(null);
    });

  const approve = (s: Submission) =>
    act(`Approved “${s.server_name}”. Its page is live now; the listings show it once the site has rebuilt.`, () =>
      client.api.admin.submissions[':id'].approve.$post({
        param: idParam(s),
        json: {
          admin_notes: notes || undefined,
          // The reviewer's choice, stored on the listing ('' is none).
          ...(subcategoryNames(s.category).length > 0 ? { subcategory: subcategory || null } : {}),
          // The reviewer's language and region (#19), stored on the listing ('' is none).
          language: language || null,
          region: region || null,
        },
      }),
    );
  const setSubmissionStatus = (s: Submission, status: (typeof REVIEW_STEPS)[number][0]) =>
    act(`“${s.server_name}” is now ${statusText(status)}.`, () =>
      client.api.admin.submissions[':id'].$patch({
        param: idParam(s),
        // A rejection carries its reasons (#32); the mail states them, the note and the appeal link.
        json: { status, admin_notes: notes, ...(status === 'rejected' ? reasonsBody(picked) : {}) },
      }),
    );
  const remove = (s: Submission) => {
    if (!window.confirm(`Delete the submission “${s.server_name}”? This cannot be undone.`)) return;
    void act(`Deleted “${s.server_name}”.`, () => client.api.admin.submissions[':id'].$delete({ param: idParam(s) }));
  };

  const { stats } = list.data ?? {};
  const status = list.filters.status;
  return (
    <section aria-labelledby="subs-title">
      <h1 id="subs-title">Submissions</h1>
      {stats && (
        <Stats
          items={[
            ['Total', stats.total],
            ['Pending', stats.pending],
            ['Under review', stats.under_review],
            ['Approved', stats.approved],
            ['Rejected', stats.rejected],
          ]}
        />
      )}
      <div className="toolbar">
        <FilterSelect
          label="Status"
          value={status}
          values={SUBMISSION_STATUSES}
          text={statusText}
          onChange={(status) => list.setFilters({ ...list.filters, status })}
        />
        <FilterSelect
          label="Order"
          value={list.filters.sort}
          values={['oldest', 'newest'] as const}
          all="Oldest first"
          text={(v) => (v === 'oldest' ? 'Oldest first' : 'Newest first')}
          onChange={(sort) => list.setFilters({ ...list.filters, sort })}
        />
      </div>
      <Notices error={list.error} done={list.done} />

      {selected && (
        <ReviewPanel
          id="sub-detail"
          level={2}
          title={selected.server_name}
          status={selected.status}
          notes={{ label: 'Admin notes', value: notes, rows: 3, onChange: setNotes }}
          decisions={
            <>
              {selected.status !== 'approved' && (
                <>
                  <button type="button" className="btn btn-primary" disabled={busy} onClick={() => approve(selected)}>
                    Approve and publish
                  </button>
                  {REVIEW_STEPS.map(([status, label]) => (
                    <button
                      type="button"
                      key={status}
                      className="btn"
                      disabled={busy}
                      onClick={() => setSubmissionStatus(selected, status)}
                    >
                      {label}
                    </button>
                  ))}
                </>
              )}
              <button type="button" className="btn btn-danger" disabled={busy} onClick={() => remove(selected)}>
                Delete
              </button>
            </>
          }
          onClose={() => setSelected(null)}
        >
          <RequirementFlags flags={selected.flags} />
          <dl className="facts">
            <dt>Category</dt>
            <dd>
              {selected.category}
              {selected.subcategory ? ` · ${selected.subcategory}` : ''}
            </dd>
            <dt>Language</dt>
            <dd>
              {languageLabel(selected.language) ?? 'Not set'}
              {selected.region ? ` · ${regionName(selected.region) ?? selected.region}` : ''}
            </dd>
            <dt>Invite</dt>
            <dd>
              <a href={selected.invite_link} rel="noopener noreferrer nofollow" target="_blank">
                {selected.invite_link}
              </a>
            </dd>
            <dt>Members</dt>
            <dd>
              {selected.member_count.toLocaleString()} ({selected.active_users.toLocaleString()} online)
            </dd>
            <dt>Submitted by</dt>
            <dd>
              {selected.submitter_name} &lt;{selected.contact_email}&gt;{' '}
              {selected.is_owner ? '(owner)' : '(not the owner)'}
            </dd>
            <dt>Ownership</dt>
            <dd>
              <OwnerProof verified={selected.owner_verified} provenAt={selected.owner_proven_at} />
            </dd>
            <dt>Submitted</dt>
            <dd>{formatDate(selected.created_at)}</dd>
            <dt>Icon</dt>
            <dd>
              {isSafeImageSrc(selected.server_image) ? (
                <img src={selected.server_image} alt="" width={48} height={48} />
              ) : (
                selected.server_image || '—'
              )}
            </dd>
          </dl>
          <h3>Description</h3>
          <p className="prewrap">{selected.server_description}</p>
          {selected.features && (
            <>
              <h3>Features</h3>
              <p className="prewrap">{selected.features}</p>
            </>
          )}
          {selected.status !== 'approved' && selected.status !== 'rejected' && (
            <ReasonPicker legend="Reasons, if you reject it" value={picked} onChange={setPicked} />
          )}
          {selected.status !== 'approved' && subcategoryNames(selected.category).length > 0 && (
            <label>
              Subcategory (stored on the listing at approval)
              <select value={subcategory} onChange={(e) => setSubcategory(e.target.value)}>
                <option value="">None</option>
                {subcategoryNames(selected.category).map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          )}
          {selected.status !== 'approved' && (
            <LanguageRegionFields
              language={language}
              region={region}
              onLanguage={setLanguage}
              onRegion={setRegion}
              note=" (stored on the listing at approval)"
            />
          )}
        </ReviewPanel>
      )}

      <DataTable
        caption="Submissions"
        rows={list.rows}
        rowKey={(s) => s.id}
        rowSelected={(s) => selected?.id === s.id}
        empty={`No submissions${status ? ` with status ${statusText(status)}` : ''}.`}
        pager={list.pager}
        columns={[
          { header: 'Server', rowHeader: true, cell: (s) => s.server_name },
          { header: 'Category', cell: (s) => s.category },
          { header: 'Members', cell: (s) => s.member_count.toLocaleString() },
          { header: 'Submitted', cell: (s) => formatDate(s.created_at) },
          {
            header: 'Waiting',
            cell: (s) =>
              s.status === 'pending' || s.status === 'under_review' ? formatAge(s.created_at, Date.now()) : '—',
          },
          {
            header: 'Flags',
            cell: (s) => (s.flags.length > 0 ? s.flags.map((f) => f.rule).join(', ') : '—'),
          },
          { header: 'Status', cell: (s) => <Badge value={s.status} /> },
          { header: 'Owner', cell: (s) => <OwnerProof verified={s.owner_verified} provenAt={s.owner_proven_at} /> },
        ]}
        actions={(s) => <RowButton label="Review" target={s.server_name} onClick={() => open(s)} />}
      />
      <OwnerEdits />
    </section>
  );
}

/**
 * Whether Discord's guild list proved the submitter the server's owner or manager (#17), and how old
 * that proof is now (the sign-in's; approval re-proves it against the owner's last sign-in).
 */
const OwnerProof = ({ verified, provenAt }: { verified: boolean; provenAt: string | null }) => (
  <span className={`badge ${verified ? 'badge-approved' : 'badge-pending'}`}>
    {verified ? 'verified owner' : 'unverified'}
    {verified && provenAt ? `, proof ${formatAge(provenAt, Date.now())} old` : ''}
  </span>
);

/**
 * The niche rules' flags on a submission (#32, src/lib/requirements/): why it was flagged, and each
 * field's text with the words that raised the flag highlighted. Judgement stays the moderator's.
 */
function RequirementFlags({ flags }: { flags: RequirementFlag[] }) {
  if (flags.length === 0) return <p className="hint">No requirement flags.</p>;
  return (
    <section className="flags" aria-label="Requirement flags">
      {flags.map((flag) => (
        <div key={flag.rule} className="notice" role="note" data-flag={flag.rule}>
          <p>
            <strong>Flagged: </strong>
            {flag.message}{' '}
            <a href={flag.href} target="_blank" rel="noopener">
              The requirement
            </a>
          </p>
          {flag.fields.map((f) => (
            <p key={f.field} className="prewrap">
              <span className="hint">{f.field === 'features' ? 'Features' : 'Description'}: </span>
              {highlight(f.text, f.matches).map((piece, i) =>
                piece.hit ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order
                  <mark key={i}>{piece.text}</mark>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text, in order
                  <span key={i}>{piece.text}</span>
                ),
              )}
            </p>
          ))}
        </div>
      ))}
    </section>
  );
}
