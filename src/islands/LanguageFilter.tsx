import { useEffect, useState } from 'react';
import { getLanguage, type LanguageCode, preferredLanguage } from '~/lib/languages';
import type { RegionChoice } from '~/lib/regions';
import { LanguageOptions } from './LanguageOptions';

interface Props {
  /** The language filtered on ('' for every language). */
  value: string;
  onChange: (code: string) => void;
  /** Off until the island runs (the list needs the script to filter). */
  disabled: boolean;
}

/**
 * The language menu of a listing's filter bar, and the visitor's browser language
 * (navigator.languages) offered as one click beside it: never applied by itself.
 */
export function LanguageFilter({ value, onChange, disabled }: Props) {
  const [offer, setOffer] = useState<LanguageCode | undefined>(undefined);
  // The browser's languages are read after hydration, so the server's HTML and the first render agree.
  useEffect(() => setOffer(preferredLanguage(navigator.languages ?? [navigator.language])), []);
  const offered = offer && offer !== value ? getLanguage(offer) : undefined;
  return (
    <span className="language-filter">
      <label className="sort">
        <span>Language</span>
        <select name="language" value={value} disabled={disabled} onChange={(e) => onChange(e.currentTarget.value)}>
          <LanguageOptions empty="Any language" />
        </select>
      </label>
      {offered ? (
        <button type="button" className="chip" disabled={disabled} onClick={() => onChange(offered.code)}>
          Show {offered.name} servers
        </button>
      ) : null}
    </span>
  );
}

interface RegionProps {
  /** The region filtered on ('' for every region). */
  value: string;
  /** The regions the listing's servers name (the build's list): none, no menu. */
  regions: readonly RegionChoice[];
  onChange: (code: string) => void;
  disabled: boolean;
}

/** The region menu of a listing's filter bar, offering the regions its servers name. */
export function RegionFilter({ value, regions, onChange, disabled }: RegionProps) {
  if (regions.length === 0) return null;
  return (
    <label className="sort language-filter">
      <span>Region</span>
      <select name="region" value={value} disabled={disabled} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">Any region</option>
        {regions.map((r) => (
          <option key={r.code} value={r.code}>
            {r.name}
          </option>
        ))}
      </select>
    </label>
  );
}
