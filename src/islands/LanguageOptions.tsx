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
