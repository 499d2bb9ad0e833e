import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchServers, type ServersQuery } from '~/lib/api-client';
import { getCategoryBySlug } from '~/lib/categories';
import type { SortOrder } from '~/lib/enums';
import { getLanguage } from '~/lib/languages';
import { DEFAULT_SORT, MEMBER_RANGES, MENU_SORTS, type MemberRangeKey, ONLINE_SHARE_CHOICES } from '~/lib/listing';
import type { RegionChoice } from '~/lib/regions';
import { SEARCH_FILTER_KEYS, searchHref } from '~/lib/search-page';
import { type CardServer, type FilterCategory, toCard } from './card-data';

/**
 * The one listing browser of the home list (HomeServers) and a listing page's toolbar
 * (ListingSearch): what the controls ask for, the answer of GET /api/servers in place of the built
 * list while they ask for anything else, more on request, and every choice kept in the page's
 * URL (the API's parameter names), so a filtered or searched list can be shared or reloaded.
 */

/** What a listing's controls ask for. */
export interface BrowseQuery {
  /** The home's category chip ('All' for every category); a listing page's category is its scope. */
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

/** The built list's query: every control at its default. */
export const BUILT_QUERY: BrowseQuery = {
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

/**
 * How many controls of `q` differ from the built list, the search aside (it has its own box): what
 * the folded Filters control says on a phone ("Filters (2 set)"), on the home and listing pages.
 */
export const filtersSet = (q: BrowseQuery): number =>
  (Object.keys(BUILT_QUERY) as (keyof BrowseQuery)[]).filter((key) => key !== 'search' && q[key] !== BUILT_QUERY[key])
    .length;

/** Whether `q` asks for the list as built (so no request is needed). */
const isBuilt = (q: BrowseQuery) =>
  (Object.keys(BUILT_QUERY) as (keyof BrowseQuery)[]).every((key) => q[key] === BUILT_QUERY[key]);

/** The member bounds of a size choice. */
function rangeOf(key: MemberRangeKey): { min: number | undefined; max: number | undefined } {
  const r = MEMBER_RANGES.find((m) => m.key === key);
  return { min: r && 'min' in r ? r.min : undefined, max: r && 'max' in r ? r.max : undefined };
}

/** A listing's own filters: a listing page's category (display name) and subcategory (key). */
export interface ListingScope {
  category?: string | undefined;
  subcategory?: string | undefined;
}

/** The filters of GET /api/servers for `q` (the API's own parameter names), page and size aside. */
function filtersOf(q: BrowseQuery): Record<string, string> {
  const range = rangeOf(q.size);
  return {
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

/** The parameters of the page's URL that a list's state is kept in: the chip, the term, the search page's filters. */
const URL_KEYS = ['category', 'search', ...SEARCH_FILTER_KEYS] as const;

/** The URL parameters of `q`: the API's filters, the order unless default, the home's category chip by slug. */
export function urlParamsOf(q: BrowseQuery, categories: readonly FilterCategory[]): Record<string, string> {
  const slug = categories.find((c) => c.name === q.category)?.slug;
  return {
    ...(slug && { category: slug }),
    ...filtersOf(q),
    ...(q.sort !== DEFAULT_SORT && { sort: q.sort }),
  };
}

/**
 * Where the home list's "View All" leads: the listing of its category chip (or of every server)
 * opened on every other choice of the home list (Premium Only, size, online share, the 24-hour
 * check, order, language and region), which that listing's browser reads from its URL and shows
 * as its own controls, so it lists the servers the visitor filtered; while searching, that
 * listing's search page, which keeps the same filters.
 */
export function fullListingHref(q: BrowseQuery, categories: readonly FilterCategory[]): string {
  const active = categories.find((c) => c.name === q.category);
  const filters = urlParamsOf({ ...q, category: BUILT_QUERY.category, search: '' }, []);
  if (q.search) {
    return searchHref({ term: q.search, category: getCategoryBySlug(active?.slug ?? ''), page: 1, filters });
  }
  const params = new URLSearchParams(filters);
  return `${active?.href ?? '/servers'}${params.size ? `?${params}` : ''}`;
}

/** The state a shared URL asks for; unknown values are ignored. */
export function queryFromUrl(
  params: URLSearchParams,
  categories: readonly FilterCategory[],
  regions: readonly RegionChoice[],
): BrowseQuery {
  const wanted = params.get('category') ?? '';
  const category = categories.find((c) => c.slug === wanted || c.name.toLowerCase() === wanted.toLowerCase());
  const min = params.get('min_members');
  const max = params.get('max_members');
  const size =
    MEMBER_RANGES.find(
      (r) => String('min' in r ? r.min : '') === (min ?? '') && String('max' in r ? r.max : '') === (max ?? ''),
    )?.key ?? 'any';
  return {
    category: category?.name ?? 'All',
    premiumOnly: params.get('premium') === 'true',
    search: (params.get('search') ?? '').trim(),
    sort: MENU_SORTS.find((s) => s === params.get('sort')) ?? DEFAULT_SORT,
    size,
    share: ONLINE_SHARE_CHOICES.find((c) => String(c) === params.get('min_online_share')) ?? 0,
    checked24h: params.get('checked_24h') === 'true',
    language: getLanguage(params.get('language'))?.code ?? '',
    region: regions.find((r) => r.code === params.get('region')?.toUpperCase())?.code ?? '',
  };
}

/** An answer shown in place of the built list. */
export interface BrowseAnswer {
  servers: CardServer[];
  total: number;
  exact: boolean;
  /** The last page appended. */
  page: number;
}

export interface ListingBrowserOptions {
  /** The listing's own filters (none on the home list). */
  scope?: ListingScope | undefined;
  perPage: number;
  /** The home's category chips (their slugs in the URL); none on a listing page. */
  categories?: readonly FilterCategory[] | undefined;
  regions: readonly RegionChoice[];
  /** Called once a shared URL's state has been asked for on hydration. */
  onOpen?: ((q: BrowseQuery) => void) | undefined;
}

const NONE: readonly FilterCategory[] = [];
const failure = (err: unknown) => (err instanceof Error ? err.message : 'Failed to fetch servers');

/**
 * The listing browser (see the module comment): `status` 'built' while the controls ask for the
 * list as built, else the API's answer ('loading', 'done' or 'error'); `update` changes a control
 * (kept in the URL, asked at once), `showMore` appends the next page, `retry` asks again.
 */
export function useListingBrowser({ scope, perPage, categories = NONE, regions, onOpen }: ListingBrowserOptions) {
  const [query, setQuery] = useState<BrowseQuery>(BUILT_QUERY);
  const [status, setStatus] = useState<'built' | 'loading' | 'done' | 'error'>('built');
  const [answer, setAnswer] = useState<BrowseAnswer | null>(null);
  const [errorText, setErrorText] = useState('');
  const [more, setMore] = useState<'idle' | 'loading' | 'error'>('idle');
  const [ready, setReady] = useState(false);
  const request = useRef(0);
  const category = scope?.category;
  const subcategory = scope?.subcategory;

  const fetchPage = useCallback(
    (q: BrowseQuery, page: number) =>
      fetchServers({
        category: category ?? q.category,
        ...(subcategory && { subcategory }),
        sort: q.sort,
        page: String(page),
        per_page: String(perPage),
        ...filtersOf(q),
      } satisfies ServersQuery),
    [category, subcategory, perPage],
  );

  const load = useCallback(
    async (q: BrowseQuery) => {
      const id = ++request.current;
      setMore('idle');
      if (isBuilt(q)) {
        setStatus('built');
        setAnswer(null);
        return;
      }
      setStatus('loading');
      try {
        const body = await fetchPage(q, 1);
        if (id !== request.current) return;
        setAnswer({ servers: body.servers.map(toCard), total: body.total, exact: body.total_exact, page: 1 });
        setStatus('done');
      } catch (err) {
        if (id !== request.current) return;
        setErrorText(failure(err));
        setStatus('error');
      }
    },
    [fetchPage],
  );

  // A shared or reloaded URL's state, asked for once the script runs; the controls come alive then.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on hydration
  useEffect(() => {
    setReady(true);
    const q = queryFromUrl(new URLSearchParams(location.search), categories, regions);
    if (isBuilt(q)) return;
    setQuery(q);
    void load(q);
    onOpen?.(q);
  }, []);

  /** Changes some controls: kept in the URL (the other parameters stay) and asked for at once. */
  function update(next: Partial<BrowseQuery>) {
    const q = { ...query, ...next };
    setQuery(q);
    const url = new URL(location.href);
    for (const key of URL_KEYS) url.searchParams.delete(key);
    for (const [key, value] of Object.entries(urlParamsOf(q, categories))) url.searchParams.set(key, value);
    history.replaceState(null, '', url);
    void load(q);
    return q;
  }

  /** Appends the next page of the answer shown. */
  async function showMore() {
    if (status !== 'done' || !answer) return;
    const id = request.current;
    setMore('loading');
    try {
      const body = await fetchPage(query, answer.page + 1);
      if (id !== request.current) return;
      const seen = new Set(answer.servers.map((s) => s.id));
      const next = body.servers.map(toCard).filter((s) => !seen.has(s.id));
      setAnswer({
        servers: [...answer.servers, ...next],
        total: body.total,
        exact: body.total_exact,
        page: answer.page + 1,
      });
      setMore('idle');
    } catch {
      if (id === request.current) setMore('error');
    }
  }

  return { query, status, answer, errorText, more, ready, update, showMore, retry: () => void load(query) };
}
