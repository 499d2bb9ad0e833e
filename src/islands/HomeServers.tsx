import type { ReactNode } from 'react';
import { LIMITS } from '~/lib/enums';
import { countFound } from '~/lib/format';
import { organicRanks } from '~/lib/placement';
import type { RegionChoice } from '~/lib/regions';
import { type FilterCategory, isPaidCard } from './card-data';
import { FiltersFold } from './FiltersFold';
import { ListingFilterControls } from './ListingFilterControls';
import { ListingOrderControls } from './ListingOrderControls';
import { ShortSearchNote } from './ShortSearchNote';
import { useCardCode } from './use-card-code';
import { type BrowseQuery, filtersSet, fullListingHref, useListingBrowser } from './use-listing-browser';

interface Props {
  /** How many servers the built list counts (its first 9 are `children`). */
  initialTotal: number;
  /** The first 9 servers as built, ranked (ServerGrid): static HTML, shown until an answer replaces them. */
  children?: ReactNode;
  categories: FilterCategory[];
  /** The regions the listed servers name (#19): the region menu's choices. */
  regions?: RegionChoice[];
}

/** No region menu: one array for every render. */
const NO_REGIONS: RegionChoice[] = [];

/** A shared URL that searched: the list is what it came for, so it scrolls into view. */
const scrollToSearch = (q: BrowseQuery) => {
  if (q.search) document.getElementById('servers')?.scrollIntoView();
};

/**
 * The home listing: filter bar (category, Premium Only, member range, online share, checked in
 * the last 24 hours, sort) and the first 9 servers. Prebuilt with the unfiltered list in Most
 * Members order, as static cards (children); the listing browser (use-listing-browser.ts, shared
 * with ListingSearch) asks GET /api/servers when a filter changes or the page was opened with
 * ?category=, ?search=, ?sort= or a filter, and keeps every choice in the URL. The cards' code
 * (use-card-code.ts) loads beside the first answer, which then takes the built cards' place. The
 * controls beyond the category buttons come alive with the script (disabled until then, and the
 * page says so without JavaScript).
 */
export default function HomeServers({ initialTotal, categories, regions = NO_REGIONS, children }: Props) {
  const browser = useListingBrowser({ perPage: LIMITS.homeList, categories, regions, onOpen: scrollToSearch });
  const { query, status, answer, errorText, ready } = browser;
  // The cards' code, fetched beside the first answer (and with the next one if that failed).
  const cards = useCardCode(status);
  const Card = cards === 'failed' ? null : cards;
  // An answer shows once its cards can be drawn; until then the list shown stays, marked busy.
  const shown = answer && (Card || answer.servers.length === 0) ? answer : null;
  const cardsFailed = status === 'done' && cards === 'failed' && !shown;
  const waiting = status === 'loading' || (status === 'done' && !shown && !cardsFailed);
  const total = shown?.total ?? initialTotal;
  const exact = shown?.exact ?? true;

  function update(next: Partial<BrowseQuery>) {
    const q = browser.update(next);
    // The hero's search box says what the list is searching for (empty once cleared).
    const hero = document.querySelector<HTMLInputElement>('#hero-search');
    if (hero && next.search !== undefined) hero.value = q.search;
  }

  const { category, premiumOnly, search } = query;
  const filtered =
    query.size !== 'any' || query.share > 0 || query.checked24h || query.language !== '' || query.region !== '';
  // Rank badges where the order is a ranking (members, the rank score) and no search reorders it.
  const ranked = !search && !premiumOnly && (query.sort === 'members' || query.sort === 'active');
  // Organic rank numbers skip paid cards (the API placed them at most one in five).
  const ranks = shown ? organicRanks(shown.servers, isPaidCard) : [];
  const active = categories.find((c) => c.name === category);
  // The full listing, opened on the same search and every filter (it shows the servers filtered here).
  const viewAllHref = fullListingHref(query, categories);
  const viewAllLabel = active ? `View All ${active.name} Servers` : 'View All Servers';

  return (
    <div className="home-servers">
      {/* On a phone the bar folds into one "Filters" control; on wide screens it always shows. */}
      <FiltersFold setCount={filtersSet(query)} className="filter-bar">
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
          <ListingFilterControls query={query} disabled={!ready} onChange={update} />
          <ListingOrderControls query={query} regions={regions} disabled={!ready} onChange={update} />
        </div>
      </FiltersFold>
      <noscript>
        <p className="filter-note">
          The filters and sorting need JavaScript: this list shows the servers with the most members first. The
          categories above and the search work without it.
        </p>
      </noscript>

      <div className="results-head">
        <p className="count" aria-live="polite">
          {/* The error state says what happened; a count from before it would be stale. */}
          {status === 'error' || cardsFailed
            ? null
            : waiting
              ? 'Loading servers…'
              : `${countFound(total, exact, 'server')} found`}
          {search && status !== 'error' && !cardsFailed ? (
            <>
              {' '}
              for “<strong>{search}</strong>”{' '}
              <button type="button" className="link-button" onClick={() => update({ search: '' })}>
                Clear search
              </button>
            </>
          ) : null}
        </p>
        {status === 'error' || cardsFailed || waiting ? null : <ShortSearchNote term={search} exact={exact} />}
      </div>

      {status === 'error' || cardsFailed ? (
        <div className="state state-error" role="alert">
          <h3>Error loading servers</h3>
          <p>{cardsFailed ? 'The servers could not be shown.' : errorText}</p>
          <p>Please try refreshing the page.</p>
          {/* A browser may keep a failed script load for the page's life: the card code comes back with a reload
              (the URL keeps every choice). */}
          <button
            type="button"
            className="btn btn-primary"
            onClick={cardsFailed ? () => location.reload() : browser.retry}
          >
            {cardsFailed ? 'Reload the page' : 'Try again'}
          </button>
        </div>
      ) : (shown ? shown.servers.length === 0 && status !== 'loading' : initialTotal === 0 && status === 'built') ? (
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
      ) : shown ? (
        <div className="grid" aria-busy={waiting} data-loading={waiting}>
          {Card
            ? shown.servers.map((s, i) => (
                <Card key={s.id} server={s} {...(ranked && ranks[i] ? { rank: ranks[i] } : {})} eager={i < 3} />
              ))
            : null}
        </div>
      ) : (
        // The built cards, until the first answer can be drawn in their place.
        <div className="listing-static" aria-busy={waiting} data-loading={waiting}>
          {children}
        </div>
      )}

      {total > LIMITS.homeList && status !== 'error' && !cardsFailed ? (
        <p className="center">
          <a className="btn btn-outline" href={viewAllHref}>
            {viewAllLabel}
          </a>
        </p>
      ) : null}
    </div>
  );
}
