import { LANGUAGES, REGION_CODES, REGIONS } from '~/lib/languages';

/** The options of a language menu (src/lib/languages.ts), after one empty option labelled `empty`. */
export function LanguageOptions({ empty, native = false }: { empty: string; native?: boolean }) {
  return (
    <>
      <option value="">{empty}</option>
      {LANGUAGES.map((l) => (
        <option key={l.code} value={l.code}>
          {native && l.native !== l.name ? `${l.name} (${l.native})` : l.name}
        </option>
      ))}
    </>
  );
}

/** The options of a region menu (every region), after one empty option labelled `empty`. */
export function RegionOptions({ empty }: { empty: string }) {
  return (
    <>
      <option value="">{empty}</option>
      {REGION_CODES.map((code) => (
        <option key={code} value={code}>
          {REGIONS[code]}
        </option>
      ))}
    </>
  );
}

/**
 * The console's language and region menus of a listing ("Not set" empties either), with `note`
 * after each label: the servers screen edits them, the submissions screen sets them at approval.
 */
export function LanguageRegionFields({
  language,
  region,
  onLanguage,
  onRegion,
  note = '',
}: {
  language: string;
  region: string;
  onLanguage: (value: string) => void;
  onRegion: (value: string) => void;
  note?: string;
}) {
  return (
    <>
      <label>
        Language{note}
        <select value={language} onChange={(e) => onLanguage(e.target.value)}>
          <LanguageOptions empty="Not set" />
        </select>
      </label>
      <label>
        Region{note}
        <select value={region} onChange={(e) => onRegion(e.target.value)}>
          <RegionOptions empty="Not set" />
        </select>
      </label>
    </>
  );
}
