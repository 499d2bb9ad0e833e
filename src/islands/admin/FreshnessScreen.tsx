import { INVITE_STATUSES, type InviteStatus } from '~/lib/enums';
import { ANOMALY_LABELS, type AnomalyRule } from '~/lib/ranking/anomalies';
import { client, idParam, parseResponse } from './api';
import { DataTable, RowButton } from './DataTable';
import { Badge, FilterSelect, formatDate, Notices, Stats } from './ui';
import { useList } from './use-list';

const statusText = (status: string) => status.replace('_', ' ');
const ruleText = (rule: string) => ANOMALY_LABELS[rule as AnomalyRule] ?? rule;

/**
 * The refresh job and the anomaly queue (one load), then the listings whose invite is not ok.
 * `isAdmin`: whether the operator may clear the breaker (admins only).
 */
export function FreshnessScreen({ isAdmin }: { isAdmin: boolean }) {
  const overview = useList({
    filters: {},
    load: async () => {
      const answer = await parseResponse(client.api.admin.freshness.$get());
      return { ...answer, rows: answer.queue };
    },
  });
  const listings = useList({
    filters: { status: '' as InviteStatus | '' },
    perPage: 25,
    load: async (filters, paging) => {
      const { servers, total } = await parseResponse(
        client.api.admin.freshness.servers.$get({ query: { ...filters, ...paging } }),
      );
      return { rows: servers, total };
    },
  });
  type Flag = NonNullable<typeof overview.rows>[number];

  const review = (flag: Flag, verdict: 'confirmed' | 'dismissed') =>
    overview.run(
      verdict === 'confirmed'
        ? `Confirmed on “${flag.name}”: the listing's page shows it after the rebuild.`
        : `Dismissed on “${flag.name}”: the rule stays quiet on it for 30 days.`,
      () => client.api.admin.freshness.flags[':id'].$patch({ param: idParam(flag), json: { verdict } }),
      { publishes: verdict === 'confirmed' },
    );

  const refreshNow = (server: { id: number; name: string }) =>
    listings.run(`Checked “${server.name}” with Discord just now.`, async () => {
      await client.api.admin.freshness.servers[':id'].refresh.$post({ param: idParam(server) });
      await overview.reload();
    });

  // Admins only (the route answers 403 to a moderator, shown as the error notice).
  const clearBreaker = () =>
    overview.run('Discord lookups resume now; the block is cleared (recorded in the audit log).', () =>
      client.api.admin.freshness.breaker.clear.$post(),
    );

  const { refresh, statuses, queueTotal } = overview.data ?? {};
  const summary = refresh?.lastRunSummary as Record<string, unknown> | null | undefined;
  return (
    <section aria-labelledby="freshness-title">
      <h1 id="freshness-title">Freshness</h1>
      <Notices error={overview.error || listings.error} done={overview.done || listings.done} />

      <h2>Refresh job</h2>
      {!refresh ? (
        <p className="muted">Loading…</p>
      ) : (
        <dl className="facts">
          <dt>Last run</dt>
          <dd>
            {refresh.lastRunAt ? formatDate(refresh.lastRunAt) : 'Never'}
            {summary && typeof summary.checked === 'number' ? ` · ${summary.checked} checked` : ''}
            {refresh.running ? ' · running now' : ''}
            {refresh.enabled ? '' : ' · timer off (REFRESH_ENABLED=false)'}
          </dd>
          <dt>Lookups this window</dt>
          <dd>
            {refresh.lookupsInWindow} of {refresh.perWindow} per 10 minutes
          </dd>
          <dt>Blocked until</dt>
          <dd>
            <BreakerState
              blockedUntil={refresh.blockedUntil}
              blockReason={refresh.blockReason}
              isAdmin={isAdmin}
              onClear={clearBreaker}
            />
          </dd>
        </dl>
      )}

      <h2>Invite states</h2>
      {statuses && <Stats items={INVITE_STATUSES.map((s) => [statusText(s), statuses[s]] as [string, number])} />}

      <h2>Anomaly queue{queueTotal ? ` (${queueTotal})` : ''}</h2>
      <p className="muted">Only confirmed flags show on a listing's page; dismissing one closes it for 30 days.</p>
      <DataTable
        caption="Anomaly flags waiting for review"
        columns={[
          { header: 'Server', rowHeader: true, cell: (f: Flag) => f.name },
          { header: 'Rule', cell: (f) => ruleText(f.rule) },
          { header: 'What we saw', cell: (f) => f.detail },
          { header: 'Opened', cell: (f) => formatDate(f.opened_at) },
        ]}
        rows={overview.rows}
        rowKey={(f) => f.id}
        actions={(f) => (
          <>
            <RowButton
              label="Confirm"
              target={`${ruleText(f.rule)} on ${f.name}`}
              onClick={() => review(f, 'confirmed')}
            />
            <RowButton
              label="Dismiss"
              target={`${ruleText(f.rule)} on ${f.name}`}
              onClick={() => review(f, 'dismissed')}
            />
          </>
        )}
        empty="No flags waiting for review."
      />

      <h2>Listings by invite state</h2>
      <div className="toolbar">
        <FilterSelect
          label="Invite state"
          value={listings.filters.status}
          values={INVITE_STATUSES}
          all="Any but ok"
          text={statusText}
          onChange={(status) => listings.setFilters({ status })}
        />
      </div>
      <DataTable
        caption="Listings by invite state"
        columns={[
          {
            header: 'Server',
            rowHeader: true,
            cell: (s: NonNullable<typeof listings.rows>[number]) => s.name,
          },
          { header: 'State', cell: (s) => <Badge value={s.invite_status} /> },
          { header: 'Last check', cell: (s) => formatDate(s.last_checked_at) },
          { header: 'Last working', cell: (s) => formatDate(s.last_ok_at) },
          { header: 'Failures', cell: (s) => s.fail_streak },
        ]}
        rows={listings.rows}
        rowKey={(s) => s.id}
        actions={(s) =>
          s.invite_code ? <RowButton label="Refresh now" target={s.name} onClick={() => refreshNow(s)} /> : null
        }
        empty="Every invite answered ok at its last check."
        pager={listings.pager}
      />
    </section>
  );
}

/**
 * The breaker's state: until when Discord lookups are blocked and why, or "Not blocked"; with
 * "Clear the block" for an admin only (the API answers a moderator 403).
 */
export function BreakerState({
  blockedUntil,
  blockReason,
  isAdmin,
  onClear,
}: {
  blockedUntil: string | null;
  blockReason: string | null;
  isAdmin: boolean;
  onClear: () => void;
}) {
  if (!blockedUntil) return <>Not blocked</>;
  return (
    <>
      {`${formatDate(blockedUntil)} · ${blockReason ?? ''}`}
      {isAdmin && (
        <>
          {' '}
          <button type="button" className="btn btn-small" onClick={onClear}>
            Clear the block
          </button>
        </>
      )}
    </>
  );
}
