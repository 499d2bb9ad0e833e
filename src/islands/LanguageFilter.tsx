import { useEffect, useState } from 'react';
import { getLanguage, LANGUAGES, type LanguageCode, preferredLanguage } from '~/lib/languages';

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
          <option value="">Any language</option>
          {LANGUAGES.map((l) => (
            <option key={l.code} value={l.code}>
              {l.name}
            </option>
          ))}
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
