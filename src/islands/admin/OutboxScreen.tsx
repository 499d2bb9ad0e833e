import { useState } from 'react';
import { MAIL_KINDS, MAIL_STATUSES } from '~/lib/enums';
import { client, idParam, messageOf, parseResponse } from './api';
import { DataTable, RowButton } from './DataTable';
import { Badge, FilterSelect, formatDate, Notice, Notices, Stats } from './ui';
import { useList } from './use-list';

type MailStatus = (typeof MAIL_STATUSES)[number];
type MailKind = (typeof MAIL_KINDS)[number];
type OpenMail = Awaited<ReturnType<typeof loadMail>>;

/**
 * Where the Outbox's frame loads a mail's HTML part: the admin route that answers it with its own
 * policy (inline styles, no script), so it looks as the mail people receive.
 */
export const mailPreviewSrc = (id: number) => `/api/admin/mail/${id}/preview`;

const loadMail = (id: number) => parseResponse(client.api.admin.mail[':id'].$get({ param: idParam({ id }) }));

/**
 * The Outbox (#16): every mail the site wrote, newest first, with its status; one opens as it is
 * sent (From, To, Reply-To, Subject, the extra headers, the text part and the HTML part). Without a
 * transport the mails wait here, and this is where a local run reads them.
 */
export function OutboxScreen() {
  const list = useList({
    filters: { status: '' as MailStatus | '', kind: '' as MailKind | '' },
    perPage: 25,
    load: async (filters, paging) => {
      const answer = await parseResponse(client.api.admin.mail.$get({ query: { ...filters, ...paging } }));
      return { ...answer, rows: answer.mails };
    },
  });
  const [open, setOpen] = useState<OpenMail | null>(null);
  const [openError, setOpenError] = useState('');
  const show = async (id: number) => {
    setOpenError('');
    try {
      setOpen(await loadMail(id));
    } catch (err) {
      setOpenError(messageOf(err));
    }
  };

  const data = list.data;
  return (
    <section aria-labelledby="outbox-title">
      <h1 id="outbox-title">Outbox</h1>
      {data && (
        <>
          <p>
            {data.transport
              ? `Mails are sent through ${data.transport === 'smtp' ? 'SMTP (SMTP_URL)' : 'the HTTP provider (MAIL_API_URL)'} from ${data.from}.`
              : 'No mail transport is set (SMTP_URL or MAIL_API_URL): mails wait here, pending, and nothing is lost.'}
          </p>
          <Stats
            items={[
              ['Pending', data.counts.pending],
              ['Sent', data.counts.sent],
              ['Failed', data.counts.failed],
            ]}
          />
        </>
      )}
      <div className="toolbar">
        <FilterSelect
          label="Status"
          value={list.filters.status}
          values={MAIL_STATUSES}
          onChange={(status) => list.setFilters({ status })}
        />
        <FilterSelect
          label="Kind"
          value={list.filters.kind}
          values={MAIL_KINDS}
          onChange={(kind) => list.setFilters({ kind })}
        />
      </div>
      <Notices error={list.error} done={list.done} />
      <DataTable
        caption="Mails"
        rows={list.rows}
        rowKey={(m) => m.id}
        rowSelected={(m) => m.id === open?.mail.id}
        empty="No mails."
        pager={list.pager}
        columns={[
          { header: 'Subject', rowHeader: true, cell: (m) => m.subject },
          { header: 'To', cell: (m) => m.to_address },
          { header: 'Kind', cell: (m) => m.kind.replace(/_/g, ' ') },
          { header: 'Status', cell: (m) => <Badge value={m.status} /> },
          { header: 'Attempts', cell: (m) => m.attempts },
          { header: 'Written', cell: (m) => formatDate(m.created_at) },
          { header: 'Sent', cell: (m) => formatDate(m.sent_at) },
        ]}
        actions={(m) => <RowButton label="Open" target={m.subject} onClick={() => void show(m.id)} />}
      />
      <Notice>{openError}</Notice>
      {open && <MailView mail={open.mail} from={data?.from ?? ''} onClose={() => setOpen(null)} />}
    </section>
  );
}

/** One mail as it is sent: its headers, its text part, and its HTML part in a sandboxed frame (no scripts, no requests but its images). */
function MailView({ mail, from, onClose }: { mail: OpenMail['mail']; from: string; onClose: () => void }) {
  const headers: [string, string][] = [
    ['From', from],
    ['To', mail.to_address],
    ...(mail.reply_to ? ([['Reply-To', mail.reply_to]] as [string, string][]) : []),
    ['Subject', mail.subject],
    ...Object.entries(mail.headers ?? {}),
  ];
  return (
    <article className="card mail-view" aria-labelledby="mail-view-title">
      <header className="message-head">
        <h2 id="mail-view-title">{mail.subject}</h2>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </header>
      <dl className="mail-headers">
        {headers.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div>
          <dt>Status</dt>
          <dd>
            {mail.status}
            {mail.sent_at ? `, sent ${formatDate(mail.sent_at)}` : ''}
            {mail.message_id ? ` (${mail.message_id})` : ''}
            {mail.last_error ? `; last error: ${mail.last_error}` : ''}
          </dd>
        </div>
      </dl>
      <h3>Text part</h3>
      <pre className="mail-text">{mail.text_body}</pre>
      <h3>HTML part</h3>
      <iframe title={`HTML part of ${mail.subject}`} sandbox="" src={mailPreviewSrc(mail.id)} className="mail-html" />
    </article>
  );
}
