import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchServers } from '~/lib/api-client';
import { LIMITS } from '~/lib/enums';
import { countOf } from '~/lib/format';
import { DEFAULT_SORT, SORT_LABELS } from '~/lib/listing';
import { type CardServer, type FilterCategory, toCard } from './card-data';
import { ServerCard } from './ServerCard';

interface Props {
  /** The first 9 servers, prebuilt into the static HTML. */
  initial: CardServer[];
  initialTotal: number;
  categories: FilterCategory[];
}

type Status = 'idle' | 'loading' | 'error';

/**
 * The home listing: filter bar (category, Premium Only, sort) and the first 9 servers.
 * Prebuilt with the unfiltered list; re-queries GET /api/servers when a filter changes or the
 * page was opened with ?search= (or ?category=).
 */
export default function HomeServers({ initial, initialTotal, categories }: Props) {
  const [category, setCategory] = useState('All');
  const [premiumOnly, setPremiumOnly] = useState(false);
  const [search, setSearch] = useState('');
  const [servers, setServers] = useState(initial);
  const [total, setTotal] = useState(initialTotal);
  const [status, setStatus] = useState<Status>('idle');
  const [errorText, setErrorText] = useState('');
  const request = useRef(0);
  const touched = useRef(false);

  const load = useCallback(async (cat: string, premium: boolean, term: string) => {
    const id = ++request.current;
    setStatus('loading');
    try {
      const body = await fetchServers({
        category: cat,
        sort: DEFAULT_SORT,
        page: '1',
        per_page: String(LIMITS.homeList),
        ...(premium && { premium: 'true' }),
        ...(term && { search: term }),
      });
      if (id !== request.current) return;
      setServers(body.servers.map(toCard));
      setTotal(body.total);
      setStatus('idle');
    } catch (err) {
      if (id !== request.current) return;
      setErrorText(err instanceof Error ? err.message : 'Failed to fetch servers');
      setStatus('error');
    }
  }, []);

  // Deep links: /?search=term and /?category=Gaming.
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const term = (params.get('search') ?? '').trim();
    const catParam = params.get('category') ?? '';
    const cat = categories.find((c) => c.slug === catParam || c.name.toLowerCase() === catParam.toLowerCase());
    if (term || cat) {
      setSearch(term);
      if (cat) setCategory(cat.name);
      touched.current = true;
      void load(cat?.name ?? 'All', false, term);
      if (term) document.getElementById('servers')?.scrollIntoView();
    }
  }, [categories, load]);

  function update(next: { category?: string; premiumOnly?: boolean; search?: string }) {
    const cat = next.category ?? category;
    const premium = next.premiumOnly ?? premiumOnly;
    const term = next.search ?? search;
    setCategory(cat);
    setPremiumOnly(premium);
    setSearch(term);
    touched.current = true;
    const url = new URL(location.href);
    if (term) url.searchParams.set('search', term);
    else url.searchParams.delete('search');
    history.replaceState(null, '', url);
    // The hero's search box says what the list is searching for (empty once cleared).
    const hero = document.querySelector<HTMLInputElement>('#hero-search');
    if (hero && next.search !== undefined) hero.value = term;
    void load(cat, premium, term);
  }

  const active = categories.find((c) => c.name === category);
  const viewAllHref = active ? active.href : '/servers';
  const viewAllLabel = active ? `View All ${active.name} Servers` : 'View All Servers';

  return (
    <div className="home-servers">
      <div className="filter-bar">
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
          <label className="sort">
            <span>Sort by</span>
            <select name="sort" defaultValue={DEFAULT_SORT}>
              <option value={DEFAULT_SORT}>{SORT_LABELS[DEFAULT_SORT]}</option>
            </select>
          </label>
        </div>
      </div>

      <div className="results-head">
        <p className="count" aria-live="polite">
          {status === 'loading' ? 'Loading servers…' : `${countOf(total, 'server')} found`}
          {search ? (
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
          <button type="button" className="btn btn-primary" onClick={() => void load(category, premiumOnly, search)}>
            Try again
          </button>
        </div>
      ) : servers.length === 0 && status !== 'loading' ? (
        <div className="state">
          <h3>{premiumOnly ? 'No premium servers found' : 'No servers found'}</h3>
          <p>Try another category or search term.</p>
          <a className="btn btn-primary" href="/servers">
            View All Servers
          </a>
        </div>
      ) : (
        <div className="grid" aria-busy={status === 'loading'} data-loading={status === 'loading'}>
          {servers.map((s, i) => (
            <ServerCard key={s.id} server={s} {...(touched.current && search ? {} : { rank: i + 1 })} eager={i < 3} />
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
