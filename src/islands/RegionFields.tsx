import { REGION_CODES, REGIONS } from '~/lib/regions';
import { LanguageOptions } from './LanguageOptions';

// The region menus of the forms (every region): apart from LanguageOptions, so the listing filters,
// which offer only the regions a build passes them, never load the 249 names.

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
