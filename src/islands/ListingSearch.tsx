import { type ReactNode, type SubmitEvent, useRef } from 'react';
import { getCategoryByName, SUBCATEGORIES } from '~/lib/categories';
import { countFound } from '~/lib/format';
import { DEFAULT_SORT, SORT_LABELS } from '~/lib/listing';
import type { RegionChoice } from '~/lib/regions';
import { filterWords, SEARCH_PAGE } from '~/lib/search-page';
import { FiltersFold } from './FiltersFold';
import { ListingFilterControls } from './ListingFilterControls';
import { ListingOrderControls } from './ListingOrderControls';
import { ShortSearchNote } from './ShortSearchNote';
import { useCardCode } from './use-card-code';
import { BUILT_QUERY, filtersSet, urlParamsOf, useListingBrowser } from './use-listing-browser';

interface Props {
  /** Display name of the category, when the listing is one. */
  category?: string | undefined;
  /** The subcategory's key (src/lib/categories.ts), when the listing is one. */
  subcategory?: string | undefined;
  label: string;
  /** The regions the listing's servers name (#19): the region menu's choices. */
  regions?: RegionChoice[] | undefined;
  /** The listing as built (its grid and pagination), shown while no search is active. */
  children?: ReactNode;
}

/** No region menu. */
const NO_REGIONS: RegionChoice[] = [];

/** Servers per page of a search or sorted listing: a static page's 24. */
const PER_PAGE = 24;

/**
 * The toolbar of a listing page (search, the home's filters, sort, language, region) and what the listing shows: the
 * static grid it wraps (Most Members, as built), or, while a search or another choice is active,
 * the answer of GET /api/servers in its place (never both, so no server shows twice), with its
 * count, more on request, and a way back. The listing browser (use-listing-browser.ts, shared
 * with HomeServers) keeps the search and every choice in the URL, so the view can be shared or
 * reloaded. Without JavaScript the search form is a plain GET of the search page, kept within
 * this category or subcategory; the filters and the order are not offered (the page says so).
 */
export default function ListingSearch({ category, subcategory, label, regions = NO_REGIONS, children }: Props) {
  const browser = useListingBrowser({ scope: { category, subcategory }, perPage: PER_PAGE, regions });
  const { query, status, answer, ready } = browser;
  const { sort } = query;
  const term = query.search;
  // One search box per listing page: a fixed id (no useId, so the build can render islands with renderToString).
  const id = 'listing-search';
  const slug = category ? getCategoryByName(category)?.slug : undefined;
  const subSlug = SUBCATEGORIES.find((s) => s.parentCategory === category && s.key === subcategory)?.slug;
  const input = useRef<HTMLInputElement>(null);
  // The cards' code, fetched beside the first answer (and with the next one if that failed).
  const cards = useCardCode(status);
  const Card = cards === 'failed' ? null : cards;

  function onSubmit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    browser.update({ search: String(new FormData(e.currentTarget).get('search') ?? '').trim() });
  }

  const clear = () => {
    browser.update({ search: '' });
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
  // What the choices let through, in the search page's words: " in French from France, premium
  // only, 1K to 10K members, Newest first".
  const { language, region } = query;
  const params = urlParamsOf(
    {
      ...BUILT_QUERY,
      premiumOnly: query.premiumOnly,
      size: query.size,
      share: query.share,
      checked24h: query.checked24h,
    },
    [],
  );
  const extras = filterWords(params);
  const place = filterWords(urlParamsOf({ ...BUILT_QUERY, language, region }, []))
    .map((w) => ` ${w}`)
    .join('');
  const filtered = extras.length > 0 || place !== '';
  const order = `${place}${extras.map((w) => `, ${w}`).join('')}${sort === DEFAULT_SORT ? '' : `, ${SORT_LABELS[sort]} first`}`;
  const clearFilters = (
    <button type="button" className="link-button" onClick={() => browser.update({ ...BUILT_QUERY, search: term })}>
      Clear filters
    </button>
  );

  return (
    <>
      <div className="toolbar">
        <form className="inline-search" method="get" action={SEARCH_PAGE} onSubmit={onSubmit}>
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
            defaultValue={term}
          />
          {slug ? <input type="hidden" name="category" value={slug} /> : null}
          {subSlug ? <input type="hidden" name="subcategory" value={subSlug} /> : null}
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        </form>
        {/* On a phone the filters and the order fold into one "Filters" control under the search, as on the home. */}
        <FiltersFold setCount={filtersSet(query)} className="toolbar-fold">
          <div className="filter-side">
            <ListingFilterControls query={query} disabled={!ready} onChange={browser.update} />
            <ListingOrderControls
              query={query}
              regions={regions}
              disabled={!ready}
              onChange={browser.update}
              sortName="Sort servers"
            />
          </div>
        </FiltersFold>
      </div>
      <noscript>
        <p className="filter-note">
          The filters and sorting need JavaScript: this list shows the servers with the most members first. The search
          works without it.
        </p>
      </noscript>
      <div className="search-results" aria-live="polite">
        {status === 'loading' ? (
          <p className="count">
            {term ? `Searching for “${term}”…` : filtered ? 'Filtering…' : `Sorting by ${SORT_LABELS[sort]}…`}
          </p>
        ) : null}
        {status === 'error' ? (
          <div className="state state-error" role="alert">
            <h3>Error loading servers</h3>
            <p>{browser.errorText}</p>
            {term ? (
              <>
                <p>Please try again, or clear the search to see every {label} server.</p>
                {clearButton}
              </>
            ) : (
              <p>
                Please try again, or {filtered ? 'clear the filters' : `choose ${SORT_LABELS[DEFAULT_SORT]}`} to see the
                listing as built.
              </p>
            )}
          </div>
        ) : null}
        {status === 'done' && answer && !Card ? (
          cards === 'failed' ? (
            <div className="state state-error" role="alert">
              <h3>Error loading servers</h3>
              <p>The servers could not be shown. Please reload the page (it keeps your search and choices).</p>
            </div>
          ) : (
            <p className="count">Loading servers…</p>
          )
        ) : null}
        {status === 'done' && answer && Card ? (
          <>
            <p className="count">
              {term ? (
                <>
                  {countFound(answer.total, answer.exact, 'server')} found for “{term}”{order} {clearButton}
                  {filtered ? <> {clearFilters}</> : null}
                </>
              ) : (
                <>
                  {countFound(answer.total, answer.exact, 'server')}
                  {order}
                  {filtered ? <> {clearFilters}</> : null}
                </>
              )}
            </p>
            <ShortSearchNote term={term} exact={answer.exact} />
            {answer.servers.length === 0 ? (
              <div className="state">
                <h3>No servers found</h3>
                <p>
                  {term
                    ? `No ${label} server${place} matches “${term}”${extras.length > 0 ? ` (${extras.join(', ')})` : ''}. Try another word, or clear the ${filtered ? 'filters or the search' : 'search'}.`
                    : extras.length > 0
                      ? `No ${label} server${place} matches these filters (${extras.join(', ')}). Try wider ones.`
                      : place
                        ? `No ${label} server${place} is listed yet.`
                        : `No ${label} server is listed right now.`}
                </p>
              </div>
            ) : (
              <div className="grid">
                {answer.servers.map((s) => (
                  <Card key={s.id} server={s} />
                ))}
              </div>
            )}
            {answer.servers.length < answer.total ? (
              <p className="center">
                <button
                  type="button"
                  className="btn btn-outline"
                  disabled={browser.more === 'loading'}
                  onClick={() => void browser.showMore()}
                >
                  {browser.more === 'loading' ? 'Loading more…' : 'Show more servers'}
                </button>
                {browser.more === 'error' ? (
                  <span role="alert"> Could not load more servers; please try again.</span>
                ) : null}
              </p>
            ) : null}
          </>
        ) : null}
      </div>
      {/* The built listing, out of the way while a search or another choice shows its answer instead. */}
      <div className="listing-static" hidden={status !== 'built'}>
        {children}
      </div>
    </>
  );
}
