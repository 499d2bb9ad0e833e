import { CONTACT_STATUSES, CONTACT_SUBJECTS } from '~/lib/enums';
import { client, idParam, parseResponse } from './api';
import { Badge, FilterSelect, formatDate, Notices, Pager } from './ui';
import { useList } from './use-list';

type ContactStatus = (typeof CONTACT_STATUSES)[number];
const subjectLabel = (v: string) => CONTACT_SUBJECTS.find((s) => s.value === v)?.label ?? v;

/** Contact messages with their status (new, read, replied, archived). */
export function ContactInbox() {
  const list = useList({
    filters: { status: '' as ContactStatus | '' },
    perPage: 20,
    load: async (filters, paging) => {
      const { messages, total } = await parseResponse(
        client.api.admin.contact.$get({ query: { ...filters, ...paging } }),
      );
      return { rows: messages, total };
    },
  });
  type Message = NonNullable<typeof list.rows>[number];

  const setMessageStatus = (m: Message, status: ContactStatus) => {
    list.update((x) => x.id === m.id, { status });
    return list.run(
      `Message from ${m.name} marked ${status}.`,
      () => client.api.admin.contact[':id'].$patch({ param: idParam(m), json: { status } }),
      { publishes: false },
    );
  };

  return (
    <section aria-labelledby="contact-title">
      <h1 id="contact-title">Contact inbox</h1>
      <div className="toolbar">
        <FilterSelect
          label="Status"
          value={list.filters.status}
          values={CONTACT_STATUSES}
          onChange={(status) => list.setFilters({ status })}
        />
      </div>
      <Notices error={list.error} done={list.done} />
      {!list.rows ? (
        <p className="muted">Loading…</p>
      ) : list.rows.length === 0 ? (
        <p className="muted">No messages.</p>
      ) : (
        list.rows.map((m) => (
          <article className="card message" key={m.id} aria-labelledby={`msg-${m.id}`}>
            <header className="message-head">
              <h2 id={`msg-${m.id}`}>
                {subjectLabel(m.subject)} <Badge value={m.priority} />
              </h2>
              <label>
                Status
                <select
                  value={m.status}
                  onChange={(e) => {
                    const status = CONTACT_STATUSES.find((s) => s === e.target.value);
                    if (status) void setMessageStatus(m, status);
                  }}
                  aria-label={`Status of message ${m.id}`}
                >
                  {CONTACT_STATUSES.map((s) => (
                    <option key={s}>{s}</option>
                  ))}
                </select>
              </label>
            </header>
            <p className="muted">
              {m.name} &lt;<a href={`mailto:${m.email}`}>{m.email}</a>&gt; · {formatDate(m.created_at)}
            </p>
            <p className="prewrap">{m.message}</p>
          </article>
        ))
      )}
      {list.pager && <Pager {...list.pager} />}
    </section>
  );
}
