import { NEWSLETTER_STATUSES } from '~/lib/enums';
import { client, idParam, parseResponse } from './api';
import { DataTable, RowButton, RowCheckbox } from './DataTable';
import { NewsletterIssuePanel } from './NewsletterIssuePanel';
import type { NewsletterStats } from './types';
import { Badge, FilterSelect, formatDate, Notices, SearchForm, Stats } from './ui';
import { useList } from './use-list';

type NewsletterStatus = (typeof NEWSLETTER_STATUSES)[number];

/**
 * The subscriber figures, here and on the dashboard (which calls the total "Subscribers"): active,
 * pending (not confirmed yet) and unsubscribed add up to it.
 */
export const subscriberStats = (stats: NewsletterStats, total = 'Total'): [string, number][] => [
  [total, stats.total],
  ['Active', stats.active],
  ['Pending', stats.pending],
  ['Unsubscribed', stats.unsubscribed],
  ['Premium', stats.premium],
  ['New, 7 days', stats.new_last_7_days],
  ['New, 30 days', stats.new_last_30_days],
];

/** Subscribers: search, status, premium flag, stats and the CSV export. */
export function NewsletterScreen() {
  const list = useList({
    filters: { search: '', status: '' as NewsletterStatus | '' },
    perPage: 25,
    load: async (filters, paging) => {
      const [{ subscribers, total }, stats] = await Promise.all([
        parseResponse(client.api.admin.newsletter.$get({ query: { ...filters, ...paging } })),
        parseResponse(client.api.admin.newsletter.stats.$get()),
      ]);
      return { rows: subscribers, total, stats };
    },
  });
  type Subscriber = NonNullable<typeof list.rows>[number];

  const patch = (s: Subscriber, change: { status?: 'unsubscribed'; premium_subscriber?: boolean }, label: string) => {
    list.update((x) => x.id === s.id, change);
    return list.run(label, () => client.api.admin.newsletter[':id'].$patch({ param: idParam(s), json: change }), {
      publishes: false,
    });
  };

  const stats = list.data?.stats;
  return (
    <section aria-labelledby="news-title">
      <h1 id="news-title">Newsletter</h1>
      {stats && <Stats items={subscriberStats(stats)} />}
      <NewsletterIssuePanel />
      <SearchForm
        label="Search email"
        onSearch={(search) => list.setFilters({ search })}
        filters={
          <FilterSelect
            label="Status"
            value={list.filters.status}
            values={NEWSLETTER_STATUSES}
            onChange={(status) => list.setFilters({ status })}
          />
        }
      >
        <a className="btn" href={client.api.admin.newsletter['export.csv'].$path()} download>
          Export CSV
        </a>
      </SearchForm>
      <Notices error={list.error} done={list.done} />
      <DataTable
        caption="Subscribers"
        rows={list.rows}
        rowKey={(s) => s.id}
        empty="No subscribers match."
        pager={list.pager}
        columns={[
          { header: 'Email', rowHeader: true, cell: (s) => s.email },
          { header: 'Status', cell: (s) => <Badge value={s.status} /> },
          {
            header: 'Premium',
            cell: (s) => (
              <RowCheckbox
                label={`${s.email} premium`}
                checked={s.premium_subscriber}
                onChange={(on) => patch(s, { premium_subscriber: on }, `${s.email}: premium ${on ? 'on' : 'off'}.`)}
              />
            ),
          },
          { header: 'Source', cell: (s) => s.source },
          { header: 'Joined', cell: (s) => formatDate(s.created_at) },
        ]}
        actions={(s) => {
          // Not active: the address is not confirmed (pending) or was withdrawn (unsubscribed). The
          // console sends the confirmation link; only its owner makes it active.
          if (s.status !== 'active') {
            const again = s.status === 'pending';
            return (
              <RowButton
                label={again ? 'Resend confirmation' : 'Send confirmation'}
                target={s.email}
                onClick={() =>
                  list.run(
                    again
                      ? `Confirmation sent again to ${s.email}.`
                      : `Confirmation sent to ${s.email}: pending until they follow its link.`,
                    () => client.api.admin.newsletter[':id'].resend.$post({ param: idParam(s) }),
                    { publishes: false },
                  )
                }
              />
            );
          }
          // Asked first: the console cannot undo it (only the address's owner confirms it again), and
          // the newsletter mails still waiting for it are given up.
          return (
            <RowButton
              label="Unsubscribe"
              target={s.email}
              danger
              onClick={() => {
                if (
                  window.confirm(
                    `Unsubscribe ${s.email}? Only its owner can subscribe it again (through a confirmation mail), and the newsletter mails waiting for it are dropped.`,
                  )
                )
                  void patch(s, { status: 'unsubscribed' }, `${s.email} unsubscribed.`);
              }}
            />
          );
        }}
      />
    </section>
  );
}
