import { z } from 'zod';
import { LANGUAGE_CODES } from '../languages';
import { REGION_CODES } from '../regions';

/** A form or query value as a code: trimmed, in the code's case, '' as `empty`; anything else as it is. */
const code =
  <E>(caseOf: (v: string) => string, empty: E) =>
  (v: unknown) =>
    typeof v === 'string' ? caseOf(v.trim()) || empty : v;

const languageEnum = z.enum(LANGUAGE_CODES, {
  error: 'Choose a language from the list (an ISO 639-1 code, like en)',
});
const regionEnum = z.enum(REGION_CODES, { error: 'Choose a region from the list (an ISO 3166-1 code, like US)' });

/** A listing's primary language (src/lib/languages.ts), any case; empty or absent: none given. */
export const optionalLanguage = z.preprocess(
  code((v) => v.toLowerCase(), undefined),
  languageEnum.optional(),
);

/** A listing's region, an ISO 3166-1 alpha-2 code in any case; empty or absent: none given. */
export const optionalRegion = z.preprocess(
  code((v) => v.toUpperCase(), undefined),
  regionEnum.optional(),
);

/** The reviewer's language: a code, null or '' to clear it, absent to keep what is stored. */
export const reviewedLanguage = z.preprocess(
  code((v) => v.toLowerCase(), null),
  languageEnum.nullable().optional(),
);

/** The reviewer's region: a code, null or '' to clear it, absent to keep what is stored. */
export const reviewedRegion = z.preprocess(
  code((v) => v.toUpperCase(), null),
  regionEnum.nullable().optional(),
);
