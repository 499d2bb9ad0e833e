import { LANGUAGES } from '~/lib/languages';

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
