import { type ReactNode, type SubmitEvent, useRef, useState } from 'react';
import { fetchServers } from '~/lib/api-client';
import { getCategoryByName } from '~/lib/categories';
import { countOf } from '~/lib/format';
import { DEFAULT_SORT, SORT_LABELS } from '~/lib/listing';
import { type CardServer, toCard } from './card-data';
import { ServerCard } from './ServerCard';

interface Props {
  /** Display name of the category, when the listing is one. */
  category?: string | undefined;
  subcategory?: string | undefined;
  label: string;
  /** The listing as built (its grid and pagination), shown while no search is active. */
  children?: ReactNode;
}

type State =
  | { kind: 'idle' }
  | { kind: 'loading'; term: string }
  | { kind: 'done'; term: string; servers: CardServer[]; total: number }
  | { kind: 'error'; term: string; message: string };

/**
 * The toolbar of a listing page (search, sort) and what the listing shows: the static grid it
 * wraps, or, while a search is active, the matches of GET /api/servers in its place (never both,
 * so no server shows twice), with their count and a way back. Without JavaScript the search
 * falls back to the home search deep link.
 */
export default function ListingSearch({ category, subcategory, label, children }: Props) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const request = useRef(0);
  // One search box per listing page: a fixed id (no useId, so the build can render islands with renderToString).
  const id = 'listing-search';
  const slug = category ? getCategoryByName(category)?.slug : undefined;

  async function onSubmit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    const term = String(new FormData(e.currentTarget).get('search') ?? '').trim();
    if (!term) {
      setState({ kind: 'idle' });
      return;
    }
    const n = ++request.current;
    setState({ kind: 'loading', term });
    try {
      const body = await fetchServers({
        search: term,
        sort: DEFAULT_SORT,
        page: '1',
        per_page: '24',
        ...(category && { category }),
        ...(subcategory && { subcategory }),
      });
      if (n === request.current) setState({ kind: 'done', term, servers: body.servers.map(toCard), total: body.total });
    } catch (err) {
      if (n === request.current)
        setState({ kind: 'error', term, message: err instanceof Error ? err.message : 'Failed to fetch servers' });
    }
  }

  const input = useRef<HTMLInputElement>(null);
  const clear = () => {
    ++request.current;
    setState({ kind: 'idle' });
    if (input.current) {
      input.current.value = '';
      input.current.focus();
    }
  };
  const clearButton = (
    <button type="button" className="link-button" onClick={clear}>
      Clear search
    </button>
  );

  return (
    <>
      <div className="toolbar">
        <form className="inline-search" method="get" action="/" onSubmit={onSubmit}>
          <label htmlFor={id} className="visually-hidden">
            Search {label} servers
          </label>
          <input
            ref={input}
            id={id}
            name="search"
            type="search"
            placeholder={`Search ${label} servers…`}
            maxLength={100}
          />
          {slug ? <input type="hidden" name="category" value={slug} /> : null}
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        </form>
        <label className="sort">
          <span>Sort by</span>
          <select name="sort" aria-label="Sort servers" defaultValue={DEFAULT_SORT}>
            <option value={DEFAULT_SORT}>{SORT_LABELS[DEFAULT_SORT]}</option>
          </select>
        </label>
      </div>
      <div className="search-results" aria-live="polite">
        {state.kind === 'loading' ? <p className="count">Searching for “{state.term}”…</p> : null}
        {state.kind === 'error' ? (
          <div className="state state-error" role="alert">
            <h3>Error loading servers</h3>
            <p>{state.message}</p>
            <p>Please try again, or clear the search to see every {label} server.</p>
            {clearButton}
          </div>
        ) : null}
        {state.kind === 'done' ? (
          <>
            <p className="count">
              {countOf(state.total, 'server')} found for “{state.term}” {clearButton}
            </p>
            {state.servers.length === 0 ? (
              <div className="state">
                <h3>No servers found</h3>
                <p>
                  No {label} server matches “{state.term}”. Try another word, or clear the search.
                </p>
              </div>
            ) : (
              <div className="grid">
                {state.servers.map((s) => (
                  <ServerCard key={s.id} server={s} />
                ))}
              </div>
            )}
          </>
        ) : null}
      </div>
      {/* The built listing, out of the way while a search shows its matches instead. */}
      <div className="listing-static" hidden={state.kind !== 'idle'}>
        {children}
      </div>
    </>
  );
}
