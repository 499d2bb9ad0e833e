import type { Key, ReactNode } from 'react';
import { Pager } from './ui';

/** One column of a DataTable. */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** The cell names its row (`<th scope="row">`): the first column, usually. */
  rowHeader?: boolean;
  className?: string;
}

/**
 * A console table: a loading line until the rows come, the empty state when there are none,
 * else the table (caption, column headers, one row each, the row actions last), then the
 * pager of a paged list.
 */
export function DataTable<Row>({
  caption,
  captionVisible = false,
  columns,
  rows,
  rowKey,
  rowClass,
  rowSelected,
  actions,
  empty,
  pager,
}: {
  /** Names the table for screen readers; shown only with captionVisible. */
  caption?: string;
  captionVisible?: boolean;
  columns: Column<Row>[];
  /** null while loading. */
  rows: readonly Row[] | null;
  rowKey: (row: Row) => Key;
  rowClass?: (row: Row) => string;
  rowSelected?: (row: Row) => boolean;
  /** The last column's buttons (RowButton), under a header only screen readers read. */
  actions?: (row: Row) => ReactNode;
  /** What an empty list says. */
  empty?: ReactNode;
  pager?: { page: number; perPage: number; total: number; onPage: (page: number) => void; label?: string } | undefined;
}) {
  return (
    <>
      {!rows ? (
        <p className="muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <div className="table-wrap">
          <table>
            {caption && <caption className={captionVisible ? undefined : 'visually-hidden'}>{caption}</caption>}
            <thead>
              <tr>
                {columns.map((c) => (
                  <th scope="col" key={c.header}>
                    {c.header}
                  </th>
                ))}
                {actions && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr
                  key={rowKey(row)}
                  className={rowClass?.(row)}
                  aria-selected={rowSelected ? rowSelected(row) : undefined}
                >
                  {columns.map((c) =>
                    c.rowHeader ? (
                      <th scope="row" key={c.header} className={c.className}>
                        {c.cell(row)}
                      </th>
                    ) : (
                      <td key={c.header} className={c.className}>
                        {c.cell(row)}
                      </td>
                    ),
                  )}
                  {actions && (
                    <td>
                      <div className="row-actions">{actions(row)}</div>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pager && <Pager {...pager} />}
    </>
  );
}

/** A small button acting on one row; its accessible name adds the row's name ("Edit Chess Guild"). */
export function RowButton({
  label,
  target,
  danger = false,
  onClick,
}: {
  label: string;
  /** Read after the label by screen readers only: the row's name, or "of …". */
  target: string;
  danger?: boolean;
  onClick: () => void;
}) {
  return (
    <button type="button" className={danger ? 'btn btn-small btn-danger' : 'btn btn-small'} onClick={onClick}>
      {label}
      <span className="visually-hidden"> {target}</span>
    </button>
  );
}

/** A checkbox acting on one row at once (visible, premium...), named for screen readers ("Chess Guild premium"). */
export function RowCheckbox({
  label,
  checked,
  disabled,
  title,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  title?: string | undefined;
  onChange: (checked: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      aria-label={label}
      checked={checked}
      disabled={disabled}
      title={title}
      onChange={(e) => onChange(e.target.checked)}
    />
  );
}
