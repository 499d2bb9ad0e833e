import { formatPercent } from '~/lib/format';
import { MEMBER_RANGES, type MemberRangeKey, ONLINE_SHARE_CHOICES } from '~/lib/listing';
import type { BrowseQuery } from './use-listing-browser';

type Filters = Pick<BrowseQuery, 'premiumOnly' | 'checked24h' | 'size' | 'share'>;

interface Props {
  query: Filters;
  /**
   * Off until the island runs (the list needs the script to filter), but for Premium Only, a
   * button whose click made while the code loads is replayed once it has (interaction-directive.ts).
   */
  disabled: boolean;
  onChange: (next: Partial<Filters>) => void;
}

/**
 * The filters of a listing browser beyond its order, language and region: Premium Only, checked in
 * the last 24 hours, size and online share. The home list and every listing page show the same
 * ones, so a listing opened from the home's "View All" shows (and can undo) what the visitor chose.
 */
export function ListingFilterControls({ query, disabled, onChange }: Props) {
  return (
    <>
      <button
        type="button"
        className="chip chip-premium"
        aria-pressed={query.premiumOnly}
        onClick={() => onChange({ premiumOnly: !query.premiumOnly })}
      >
        Premium Only
      </button>
      <button
        type="button"
        className="chip"
        aria-pressed={query.checked24h}
        disabled={disabled}
        onClick={() => onChange({ checked24h: !query.checked24h })}
      >
        Checked in the last 24 hours
      </button>
      <label className="sort">
        <span>Size</span>
        <select
          name="size"
          value={query.size}
          disabled={disabled}
          onChange={(e) => onChange({ size: e.currentTarget.value as MemberRangeKey })}
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
          disabled={disabled}
          onChange={(e) => onChange({ share: Number(e.currentTarget.value) })}
        >
          {ONLINE_SHARE_CHOICES.map((c) => (
            <option key={c} value={String(c)}>
              {c === 0 ? 'Any share' : `${formatPercent(c)}+ of members`}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
