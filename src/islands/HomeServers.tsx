import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchServers, type ServersQuery } from '~/lib/api-client';
import { LIMITS, type SortOrder } from '~/lib/enums';
import { countFound } from '~/lib/format';
import { getLanguage, type RegionChoice } from '~/lib/languages';
import {
  DEFAULT_SORT,
  MEMBER_RANGES,
  MENU_SORTS,
  type MemberRangeKey,
  ONLINE_SHARE_CHOICES,
  SORT_LABELS,
} from '~/lib/listing';
import { organicRanks } from '~/lib/placement';
import { type CardServer, type FilterCategory, toCard } from './card-data';
import { LanguageFilter, RegionFilter } from './LanguageFilter';
import { isPaidCard, ServerCard } from './ServerCard';

interface Props {
  /** The first 9 servers, prebuilt into the static HTML. */
  initial: CardServer[];
  initialTotal: number;
  categories: FilterCategory[];
  /** The regions the listed servers name (#19): the region menu's choices. */
  regions?: RegionChoice[];
}

type Status = 'idle' | 'loading' | 'error';

/** What the filter bar asks for. */
interface Query {
  category: string;
  premiumOnly: boolean;
  search: string;
  sort: SortOrder;
  size: MemberRangeKey;
  /** Minimum online share, one of ONLINE_SHARE_CHOICES (0: any). */
  share: number;
  checked24h: boolean;
  /** ISO 639-1 language ('' for every language). */
  language: string;
  /** ISO 3166-1 region ('' for every region). */
  region: string;
}

const START: Query = {
  category: 'All',
  premiumOnly: false,
  search: '',
  sort: DEFAULT_SORT,
  size: 'any',
  share: 0,
  checked24h: false,
  language: '',
  region: '',
};

/** The member bounds of a size choice. */
function rangeOf(key: MemberRangeKey): { min: number | undefined; max: number | undefined } {
  const r = MEMBER_RANGES.find((m) => m.key === key);
  return { min: r && 'min' in r ? r.min : undefined, max: r && 'max' in r ? r.max : undefined };
}

/** The query of GET /api/servers for a filter bar's state: the API's own parameter names. */
function apiQuery(q: Query): ServersQuery {
  const range = rangeOf(q.size);
  return {
    category: q.category,
    sort: q.sort,
    page: '1',
    per_page: String(LIMITS.homeList),
    ...(q.premiumOnly && { premium: 'true' }),
    ...(q.search && { search: q.search }),
    ...(range.min !== undefined && { min_members: String(range.min) }),
    ...(range.max !== undefined && { max_members: String(range.max) }),
    ...(q.share > 0 && { min_online_share: String(q.share) }),
    ...(q.checked24h && { checked_24h: 'true' }),
    ...(q.language && { language: q.language }),
    ...(q.region && { region: q.region }),
  };
}

/** The parameters of the page's URL that share a filtered list (the API's names; search and category as before). */
const URL_KEYS = [
  'search',
  'sort',
  'min_members',
  'max_members',
  'min_online_share',
  'checked_24h',
  'language',
  'region',
] as const;

/** The filter bar's state a shared URL asks for; unknown values are ignored. */
function queryFromUrl(params: URLSearchParams, categories: FilterCategory[], regions: RegionChoice[]): Query {
  const catParam = params.get('category') ?? '';
  const cat = categories.find((c) => c.slug === catParam || c.name.toLowerCase() === catParam.toLowerCase());
  const sort = MENU_SORTS.find((s) => s === params.get('sort')) ?? DEFAULT_SORT;
  const min = params.get('min_members');
  const max = params.get('max_members');
  const size =
    MEMBER_RANGES.find(
      (r) => String('min' in r ? r.min : '') === (min ?? '') && String('max' in r ? r.max : '') === (max ?? ''),
    )?.key ?? 'any';
  const share = ONLINE_SHARE_CHOICES.find((c) => String(c) === params.get('min_online_share')) ?? 0;
  return {
    ...START,
    category: cat?.name ?? 'All',
    search: (params.get('search') ?? '').trim(),
    sort,
    size,
    share,
    checked24h: params.get('checked_24h') === 'true',
    language: getLanguage(params.get('language'))?.code ?? '',
    region: regions.find((r) => r.code === params.get('region')?.toUpperCase())?.code ?? '',
  };
}

/** No region menu: one array for every render, so the deep-link effect runs once. */
const NO_REGIONS: RegionChoice[] = [];

const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * The home listing: filter bar (category, Premium Only, member range, online share, checked in
 * the last 24 hours, sort) and the first 9 servers. Prebuilt with the unfiltered list in Most
 * Members order; re-queries GET /api/servers when a filter changes or the page was opened with
 * ?search=, ?category=, ?sort= or a filter. The controls beyond the category buttons come alive
 * with the script (disabled until then, and the page says so without JavaScript).
 */
export default function HomeServers({ initial, initialTotal, categories, regions = NO_REGIONS }: Props) {
  const [query, setQuery] = useState<Query>(START);
  const [servers, setServers] = useState(initial);
  const [total, setTotal] = useState(initialTotal);
  const [exact, setExact] = useState(true);
  const [status, setStatus] = useState<Status>('idle');
  const [errorText, setErrorText] = useState('');
  const [ready, setReady] = useState(false);
  const request = useRef(0);

  const load = useCallback(async (q: Query) => {
    const id = ++request.current;
    setStatus('loading');
    try {
      const body = await fetchServers(apiQuery(q));
      if (id !== request.current) return;
      setServers(body.servers.map(toCard));
      setTotal(body.total);
      setExact(body.total_exact);
      setStatus('idle');
    } catch (err) {
      if (id !== request.current) return;
      setErrorText(err instanceof Error ? err.message : 'Failed to fetch servers');
      setStatus('error');
    }
  }, []);

  // Deep links: /?search=term, /?category=Gaming, /?sort=newest and the filters' own parameters.
  useEffect(() => {
    setReady(true);
    const params = new URLSearchParams(location.search);
    if (!params.has('category') && !URL_KEYS.some((k) => params.has(k))) return;
    const q = queryFromUrl(params, categories, regions);
    setQuery(q);
    void load(q);
    if (q.search) document.getElementById('servers')?.scrollIntoView();
  }, [categories, regions, load]);

  function update(next: Partial<Query>) {
    const q = { ...query, ...next };
    setQuery(q);
    const url = new URL(location.href);
    const api = apiQuery(q);
    for (const key of URL_KEYS) {
      const value = key === 'sort' ? (q.sort === DEFAULT_SORT ? undefined : q.sort) : api[key];
      if (typeof value === 'string' && value) url.searchParams.set(key, value);
      else url.searchParams.delete(key);
    }
    history.replaceState(null, '', url);
    // The hero's search box says what the list is searching for (empty once cleared).
    const hero = document.querySelector<HTMLInputElement>('#hero-search');
    if (hero && next.search !== undefined) hero.value = q.search;
    void load(q);
  }

  const { category, premiumOnly, search } = query;
  const filtered =
    query.size !== 'any' || query.share > 0 || query.checked24h || query.language !== '' || query.region !== '';
  // Rank badges where the order is a ranking (members, the rank score) and no search reorders it.
  const ranked = !search && !premiumOnly && (query.sort === 'members' || query.sort === 'active');
  // Organic rank numbers skip paid cards (the API placed them at most one in five).
  const ranks = organicRanks(servers, isPaidCard);
  const active = categories.find((c) => c.name === category);
  // The listing page opens in the same order (its search island reads ?sort=).
  const viewAllHref = `${active ? active.href : '/servers'}${query.sort === DEFAULT_SORT ? '' : `?sort=${query.sort}`}`;
  const viewAllLabel = active ? `View All ${active.name} Servers` : 'View All Servers';

  // How many filters differ from the start (the folded bar's summary says so on a phone).
  const setCount = [
    category !== START.category,
    premiumOnly,
    query.checked24h,
    query.size !== START.size,
    query.share !== START.share,
    query.sort !== START.sort,
    query.language !== START.language,
    query.region !== START.region,
  ].filter(Boolean).length;

  return (
    <div className="home-servers">
      {/* On a phone the bar folds into one "Filters" control (a plain <details>: no script needed);
          on wide screens the summary is hidden and the bar always shows (global.css). */}
      <details className="filter-bar filters-fold">
        <summary>Filters{setCount > 0 ? <span className="filters-count"> ({setCount} set)</span> : null}</summary>
        <fieldset className="filter-cats">
          <legend className="visually-hidden">Category</legend>
          {['All', ...categories.map((c) => c.name)].map((name) => (
            <button
              key={name}
              type="button"
              className="chip"
              aria-pressed={category === name}
              onClick={() => update({ category: name })}
            >
              {name}
            </button>
          ))}
        </fieldset>
        <div className="filter-side">
          <button
            type="button"
            className="chip chip-premium"
            aria-pressed={premiumOnly}
            onClick={() => update({ premiumOnly: !premiumOnly })}
          >
            Premium Only
          </button>
          <button
            type="button"
            className="chip"
            aria-pressed={query.checked24h}
            disabled={!ready}
            onClick={() => update({ checked24h: !query.checked24h })}
          >
            Checked in the last 24 hours
          </button>
          <label className="sort">
            <span>Size</span>
            <select
              name="size"
              value={query.size}
              disabled={!ready}
              onChange={(e) => update({ size: e.currentTarget.value as MemberRangeKey })}
            >
              {MEMBER_RANGES.map((r) => (
                <option key={r.key} value={r.key}>
                  {r.label}
                </option>
              ))}
            </select>
          </label>
          <label className="sort">
            <span>Online now</span>
            <select
              name="min_online_share"
              value={String(query.share)}
              disabled={!ready}
              onChange={(e) => update({ share: Number(e.currentTarget.value) })}
            >
              {ONLINE_SHARE_CHOICES.map((c) => (
                <option key={c} value={String(c)}>
                  {c === 0 ? 'Any share' : `${percent(c)}+ of members`}
                </option>
              ))}
            </select>
          </label>
          <label className="sort">
            <span>Sort by</span>
            <select
              name="sort"
              value={query.sort}
              disabled={!ready}
              onChange={(e) => update({ sort: e.currentTarget.value as SortOrder })}
            >
              {MENU_SORTS.map((key) => (
                <option key={key} value={key}>
                  {SORT_LABELS[key]}
                </option>
              ))}
            </select>
          </label>
          <LanguageFilter value={query.language} disabled={!ready} onChange={(language) => update({ language })} />
          <RegionFilter
            value={query.region}
            regions={regions}
            disabled={!ready}
            onChange={(region) => update({ region })}
          />
          <a className="sort-help" href="/ranking">
            How ranking works
          </a>
        </div>
      </details>
      <noscript>
        <p className="filter-note">
          Sorting and the size, online and checked filters need JavaScript, as does the language filter: this list shows
          the servers with the most members first.
        </p>
      </noscript>

      <div className="results-head">
        <p className="count" aria-live="polite">
          {/* The error state says what happened; a count from before it would be stale. */}
          {status === 'error'
            ? null
            : status === 'loading'
              ? 'Loading servers…'
              : `${countFound(total, exact, 'server')} found`}
          {search && status !== 'error' ? (
            <>
              {' '}
              for “<strong>{search}</strong>”{' '}
              <button type="button" className="link-button" onClick={() => update({ search: '' })}>
                Clear search
              </button>
            </>
          ) : null}
        </p>
      </div>

      {status === 'error' ? (
        <div className="state state-error" role="alert">
          <h3>Error loading servers</h3>
          <p>{errorText}</p>
          <p>Please try refreshing the page.</p>
          <button type="button" className="btn btn-primary" onClick={() => void load(query)}>
            Try again
          </button>
        </div>
      ) : servers.length === 0 && status !== 'loading' ? (
        <div className="state">
          <h3>{premiumOnly ? 'No premium servers found' : 'No servers found'}</h3>
          <p>
            {filtered
              ? 'Try a wider size, a lower online share, any check time, any language or any region.'
              : 'Try another category or search term.'}
          </p>
          <a className="btn btn-primary" href="/servers">
            View All Servers
          </a>
        </div>
      ) : (
        <div className="grid" aria-busy={status === 'loading'} data-loading={status === 'loading'}>
          {servers.map((s, i) => (
            <ServerCard key={s.id} server={s} {...(ranked && ranks[i] ? { rank: ranks[i] } : {})} eager={i < 3} />
          ))}
        </div>
      )}

      {total > LIMITS.homeList && status !== 'error' ? (
        <p className="center">
          <a className="btn btn-outline" href={viewAllHref}>
            {viewAllLabel}
          </a>
        </p>
      ) : null}
    </div>
  );
}
