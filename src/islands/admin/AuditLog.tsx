import { client, parseResponse } from './api';
import { DataTable } from './DataTable';
import { formatDate, Notice } from './ui';
import { useList } from './use-list';

/** Who did what to which record, newest first. */
export function AuditLog() {
  const list = useList({
    filters: {},
    perPage: 50,
    load: async (_, paging) => {
      const { entries, total } = await parseResponse(client.api.admin.audit.$get({ query: paging }));
      return { rows: entries, total };
    },
  });
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <Notice>{list.error}</Notice>
      <DataTable
        caption="Audit log"
        rows={list.rows}
        rowKey={(e) => e.id}
        pager={list.pager}
        empty="Nothing recorded yet."
        columns={[
          { header: 'When', cell: (e) => formatDate(e.created_at) },
          { header: 'Who', cell: (e) => e.operator_email ?? '—' },
          { header: 'Action', cell: (e) => e.action },
          { header: 'Record', cell: (e) => `${e.entity}${e.entity_id ? ` #${e.entity_id}` : ''}` },
          { header: 'Details', className: 'details', cell: (e) => (e.details ? JSON.stringify(e.details) : '') },
        ]}
      />
    </section>
  );
}
