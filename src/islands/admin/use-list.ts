import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from './api';
import { useWrites } from './ui';

/** What a screen's loader answers: the rows on show and their total over all pages (paged lists). */
export interface ListAnswer<Row> {
  rows: Row[];
  total?: number;
}

/** The page a paged list asks for, as it goes in the query string. */
export interface Paging {
  page: string;
  per_page: string;
}

/**
 * One console list: its filters and page, the loader that runs again whenever they change,
 * an optimistic change of a row, and the screen's writes (useWrites), each followed by a
 * reload so the list shows what is stored. A slower answer to an older query never replaces
 * a newer one.
 */
export function useList<Filters extends object, Row extends object, Extra extends object>({
  filters: initialFilters,
  perPage,
  load,
}: {
  /** The filters the list starts with. */
  filters: Filters;
  /** Rows per page; a list without it is not paged. */
  perPage?: number;
  /** The rows and total, and anything else the screen shows beside them (stats). */
  load: (filters: Filters, paging: Paging) => Promise<ListAnswer<Row> & Extra>;
}) {
  const [filters, setFilterState] = useState(initialFilters);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<(ListAnswer<Row> & Extra) | null>(null);
  const writes = useWrites();
  const { setError } = writes;
  // The loader is a fresh closure each render; the list reloads when its query changes, not then.
  const loader = useRef(load);
  loader.current = load;
  const latest = useRef(0);

  const reload = useCallback(async () => {
    const call = ++latest.current;
    try {
      const answer = await loader.current(filters, { page: String(page), per_page: String(perPage ?? '') });
      if (call === latest.current) setData(answer);
    } catch (err) {
      if (call === latest.current) setError(messageOf(err));
    }
  }, [filters, page, perPage, setError]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return {
    ...writes,
    data,
    rows: data?.rows ?? null,
    filters,
    /** Changes some filters and goes back to the first page. */
    setFilters: (change: Partial<Filters>) => {
      setFilterState((f) => ({ ...f, ...change }));
      setPage(1);
    },
    reload,
    /** Shows a change at once (a checkbox stays where the operator put it); the reload after the write brings the stored truth. */
    update: (isRow: (row: Row) => boolean, change: Partial<Row>) =>
      setData((d) => d && { ...d, rows: d.rows.map((r) => (isRow(r) ? { ...r, ...change } : r)) }),
    /** Runs one write (see useWrites), then reloads the list. */
    run: (label: string | (() => string), write: () => Promise<unknown>, options?: { publishes?: boolean }) =>
      writes.run(label, write, reload, options),
    /** The Pager's props, once a paged list has loaded. */
    pager:
      perPage !== undefined && data?.total !== undefined
        ? { page, perPage, total: data.total, onPage: setPage }
        : undefined,
  };
}
