import type { SortOrder } from '~/lib/enums';
import { MENU_SORTS, SORT_LABELS } from '~/lib/listing';
import type { RegionChoice } from '~/lib/regions';
import { LanguageFilter, RegionFilter } from './LanguageFilter';
import type { BrowseQuery } from './use-listing-browser';

interface Props {
  query: Pick<BrowseQuery, 'sort' | 'language' | 'region'>;
  regions: readonly RegionChoice[];
  /** Off until the island runs (the list needs the script to re-order or filter). */
  disabled: boolean;
  onChange: (next: Partial<Pick<BrowseQuery, 'sort' | 'language' | 'region'>>) => void;
  /** The sort menu's accessible name, when it is not "Sort by". */
  sortName?: string | undefined;
}

/** The order, language and region controls of a listing browser, and the link to how ranking works. */
export function ListingOrderControls({ query, regions, disabled, onChange, sortName }: Props) {
  return (
    <>
      <label className="sort">
        <span>Sort by</span>
        <select
          name="sort"
          aria-label={sortName}
          value={query.sort}
          disabled={disabled}
          onChange={(e) => onChange({ sort: e.currentTarget.value as SortOrder })}
        >
          {MENU_SORTS.map((key) => (
            <option key={key} value={key}>
              {SORT_LABELS[key]}
            </option>
          ))}
        </select>
      </label>
      <LanguageFilter value={query.language} disabled={disabled} onChange={(language) => onChange({ language })} />
      <RegionFilter
        value={query.region}
        regions={[...regions]}
        disabled={disabled}
        onChange={(region) => onChange({ region })}
      />
      <a className="sort-help" href="/ranking">
        How ranking works
      </a>
    </>
  );
}
