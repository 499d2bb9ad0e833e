import { type ReactNode, type SubmitEvent, useEffect, useRef, useState } from 'react';
import { fetchServers } from '~/lib/api-client';
import { getCategoryByName } from '~/lib/categories';
import type { SortOrder } from '~/lib/enums';
import { countFound } from '~/lib/format';
import { getLanguage, type RegionChoice } from '~/lib/languages';
import { DEFAULT_SORT, MENU_SORTS, SORT_LABELS } from '~/lib/listing';
import { type CardServer, toCard } from './card-data';
import { LanguageFilter, RegionFilter } from './LanguageFilter';
import { ServerCard } from './ServerCard';

interface Props {
  /** Display name of the category, when the listing is one. */
  category?: string | undefined;
  subcategory?: string | undefined;
  label: string;
  /** The regions the listing's servers name (#19): the region menu's choices. */
  regions?: RegionChoice[] | undefined;
  /** The listing as built (its grid and pagination), shown while no search is active. */
  children?: ReactNode;
}

/** No region menu. */
const NO_REGIONS: RegionChoice[] = [];

/** What the toolbar asks for: a search term ('' for none), an order, a language and a region ('' for any). */
interface Ask {
  term: string;
  sort: SortOrder;
  language: string;
  region: string;
}

type State =
  | { kind: 'idle' }
  | ({ kind: 'loading' } & Ask)
  | ({
      kind: 'done';
      servers: CardServer[];
      total: number;
      exact: boolean;
      page: number;
      more: 'idle' | 'loading' | 'error';
    } & Ask)
  | ({ kind: 'error'; message: string } & Ask);

/** Servers per page of a search or sorted listing: a static page's 24. */
const PER_PAGE = 24;

const failure = (err: unknown) => (err instanceof Error ? err.message : 'Failed to fetch servers');

/**
 * The toolbar of a listing page (search, sort) and what the listing shows: the static grid it
 * wraps (Most Members, as built), or, while a search or another order is active, the answer of
 * GET /api/servers in its place (never both, so no server shows twice), with its count, more on
 * request, and a way back. The order is kept in the URL (?sort=), so a sorted listing can be
 * shared or reloaded. Without JavaScript the search falls back to the home search deep link, and
 * the sort menu stays disabled on the built order (the page says so).
 */
export default function ListingSearch({ category, subcategory, label, regions = NO_REGIONS, children }: Props) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [sort, setSort] = useState<SortOrder>(DEFAULT_SORT);
  const [language, setLanguage] = useState('');
  const [region, setRegion] = useState('');
  const [ready, setReady] = useState(false);
  const request = useRef(0);
  // One search box per listing page: a fixed id (no useId, so the build can render islands with renderToString).
  const id = 'listing-search';
  const slug = category ? getCategoryByName(category)?.slug : undefined;

  const fetchPage = (ask: Ask, page: number) =>
    fetchServers({
      sort: ask.sort,
      page: String(page),
      per_page: String(PER_PAGE),
      ...(ask.term && { search: ask.term }),
      ...(ask.language && { language: ask.language }),
      ...(ask.region && { region: ask.region }),
      ...(category && { category }),
      ...(subcategory && { subcategory }),
    });

  /** Shows what `ask` asks for: the built listing for no search in the built order, else the API's first page. */
  async function show(ask: Ask) {
    const n = ++request.current;
    if (!ask.term && ask.sort === DEFAULT_SORT && !ask.language && !ask.region) {
      setState({ kind: 'idle' });
      return;
    }
    setState({ kind: 'loading', ...ask });
    try {
      const body = await fetchPage(ask, 1);
      if (n === request.current)
        setState({
          kind: 'done',
          ...ask,
          servers: body.servers.map(toCard),
          total: body.total,
          exact: body.total_exact,
          page: 1,
          more: 'idle',
        });
    } catch (err) {
      if (n === request.current) setState({ kind: 'error', ...ask, message: failure(err) });
    }
  }

  /** Appends the next page of the answer shown. */
  async function showMore() {
    if (state.kind !== 'done') return;
    const n = request.current;
    const shown = state;
    setState({ ...shown, more: 'loading' });
    try {
      const body = await fetchPage(shown, shown.page + 1);
      if (n !== request.current) return;
      const seen = new Set(shown.servers.map((s) => s.id));
      const next = body.servers.map(toCard).filter((s) => !seen.has(s.id));
      setState({
        ...shown,
        servers: [...shown.servers, ...next],
        total: body.total,
        exact: body.total_exact,
        page: shown.page + 1,
        more: 'idle',
      });
    } catch {
      if (n === request.current) setState({ ...shown, more: 'error' });
    }
  }

  const term = state.kind === 'idle' ? '' : state.term;

  // A shared or reloaded URL's order (?sort=newest); the controls come alive with the script.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on hydration
  useEffect(() => {
    setReady(true);
    const params = new URLSearchParams(location.search);
    const wanted = MENU_SORTS.find((s) => s === params.get('sort')) ?? DEFAULT_SORT;
    const lang = getLanguage(params.get('language'))?.code ?? '';
    const place = regions.find((r) => r.code === params.get('region')?.toUpperCase())?.code ?? '';
    if (wanted !== DEFAULT_SORT || lang || place) {
      setSort(wanted);
      setLanguage(lang);
      setRegion(place);
      void show({ term: '', sort: wanted, language: lang, region: place });
    }
  }, []);

  /** Keeps the order, the language and the region in the URL, so a sorted or filtered listing can be shared. */
  function keepInUrl(next: Omit<Ask, 'term'>) {
    const url = new URL(location.href);
    if (next.sort === DEFAULT_SORT) url.searchParams.delete('sort');
    else url.searchParams.set('sort', next.sort);
    for (const key of ['language', 'region'] as const) {
      if (next[key]) url.searchParams.set(key, next[key]);
      else url.searchParams.delete(key);
    }
    history.replaceState(null, '', url);
  }

  /** Shows the listing with one control changed, and keeps it in the URL. */
  function change(next: Partial<Omit<Ask, 'term'>>) {
    const ask = { term, sort, language, region, ...next };
    setSort(ask.sort);
    setLanguage(ask.language);
    setRegion(ask.region);
    keepInUrl(ask);
    void show(ask);
  }

  async function onSubmit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    await show({ term: String(new FormData(e.currentTarget).get('search') ?? '').trim(), sort, language, region });
  }

  const input = useRef<HTMLInputElement>(null);
  const clear = () => {
    void show({ term: '', sort, language, region });
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
  const languageName = getLanguage(language)?.name;
  const regionName = regions.find((r) => r.code === region)?.name;
  const order = `${languageName ? ` in ${languageName}` : ''}${regionName ? ` from ${regionName}` : ''}${sort === DEFAULT_SORT ? '' : `, ${SORT_LABELS[sort]} first`}`;

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
          <select
            name="sort"
            aria-label="Sort servers"
            value={sort}
            disabled={!ready}
            onChange={(e) => change({ sort: e.currentTarget.value as SortOrder })}
          >
            {MENU_SORTS.map((key) => (
              <option key={key} value={key}>
                {SORT_LABELS[key]}
              </option>
            ))}
          </select>
        </label>
        <LanguageFilter value={language} disabled={!ready} onChange={(next) => change({ language: next })} />
        <RegionFilter
          value={region}
          regions={regions}
          disabled={!ready}
          onChange={(next) => change({ region: next })}
        />
        <a className="sort-help" href="/ranking">
          How ranking works
        </a>
      </div>
      <noscript>
        <p className="filter-note">
          Sorting needs JavaScript: this list shows the servers with the most members first.
        </p>
      </noscript>
      <div className="search-results" aria-live="polite">
        {state.kind === 'loading' ? (
          <p className="count">
            {state.term
              ? `Searching for “${state.term}”…`
              : state.language || state.region
                ? 'Filtering…'
                : `Sorting by ${SORT_LABELS[state.sort]}…`}
          </p>
        ) : null}
        {state.kind === 'error' ? (
          <div className="state state-error" role="alert">
            <h3>Error loading servers</h3>
            <p>{state.message}</p>
            {state.term ? (
              <>
                <p>Please try again, or clear the search to see every {label} server.</p>
                {clearButton}
              </>
            ) : (
              <p>Please try again, or choose {SORT_LABELS[DEFAULT_SORT]} to see the listing as built.</p>
            )}
          </div>
        ) : null}
        {state.kind === 'done' ? (
          <>
            <p className="count">
              {state.term ? (
                <>
                  {countFound(state.total, state.exact, 'server')} found for “{state.term}”{order} {clearButton}
                </>
              ) : (
                `${countFound(state.total, state.exact, 'server')}${order}`
              )}
            </p>
            {state.servers.length === 0 ? (
              <div className="state">
                <h3>No servers found</h3>
                <p>
                  {state.term
                    ? `No ${label} server matches “${state.term}”. Try another word, or clear the search.`
                    : languageName || regionName
                      ? `No ${label} server${order.split(',')[0]} is listed yet.`
                      : `No ${label} server is listed right now.`}
                </p>
              </div>
            ) : (
              <div className="grid">
                {state.servers.map((s) => (
                  <ServerCard key={s.id} server={s} />
                ))}
              </div>
            )}
            {state.servers.length < state.total ? (
              <p className="center">
                <button
                  type="button"
                  className="btn btn-outline"
                  disabled={state.more === 'loading'}
                  onClick={() => void showMore()}
                >
                  {state.more === 'loading' ? 'Loading more…' : 'Show more servers'}
                </button>
                {state.more === 'error' ? (
                  <span role="alert"> Could not load more servers; please try again.</span>
                ) : null}
              </p>
            ) : null}
          </>
        ) : null}
      </div>
      {/* The built listing, out of the way while a search or another order shows its answer instead. */}
      <div className="listing-static" hidden={state.kind !== 'idle'}>
        {children}
      </div>
    </>
  );
}
