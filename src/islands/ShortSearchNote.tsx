import { CLAIMS } from '~/lib/claims';
import { MIN_INDEXED_SEARCH } from '~/lib/listing';

/**
 * Why a search of one or two characters may not list every match: the answer looked among the
 * order's first servers only (its total is a lower bound). Nothing for any other answer.
 */
export function ShortSearchNote({ term, exact }: { term: string | undefined; exact: boolean }) {
  if (exact || !term || [...term.trim()].length >= MIN_INDEXED_SEARCH) return null;
  return <p className="filter-note">{CLAIMS.shortSearch}</p>;
}
