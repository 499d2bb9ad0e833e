/**
 * Languages of a listing (#19), defined once: the submission and console schemas, the listing
 * filters (pages, islands, GET /api/servers) and every form's options read these. A listing's
 * primary language is an ISO 639-1 code; its optional region is in regions.ts. Pure data and
 * lookups: runs in the browser too.
 */

/** The languages a listing can be in: ISO 639-1 code, English name, the language's own name. */
export const LANGUAGES = [
  { code: 'en', name: 'English', native: 'English' },
  { code: 'es', name: 'Spanish', native: 'Español' },
  { code: 'pt', name: 'Portuguese', native: 'Português' },
  { code: 'fr', name: 'French', native: 'Français' },
  { code: 'de', name: 'German', native: 'Deutsch' },
  { code: 'it', name: 'Italian', native: 'Italiano' },
  { code: 'nl', name: 'Dutch', native: 'Nederlands' },
  { code: 'pl', name: 'Polish', native: 'Polski' },
  { code: 'ru', name: 'Russian', native: 'Русский' },
  { code: 'uk', name: 'Ukrainian', native: 'Українська' },
  { code: 'tr', name: 'Turkish', native: 'Türkçe' },
  { code: 'ar', name: 'Arabic', native: 'العربية' },
  { code: 'he', name: 'Hebrew', native: 'עברית' },
  { code: 'fa', name: 'Persian', native: 'فارسی' },
  { code: 'hi', name: 'Hindi', native: 'हिन्दी' },
  { code: 'bn', name: 'Bengali', native: 'বাংলা' },
  { code: 'ur', name: 'Urdu', native: 'اردو' },
  { code: 'id', name: 'Indonesian', native: 'Bahasa Indonesia' },
  { code: 'ms', name: 'Malay', native: 'Bahasa Melayu' },
  { code: 'th', name: 'Thai', native: 'ไทย' },
  { code: 'vi', name: 'Vietnamese', native: 'Tiếng Việt' },
  { code: 'tl', name: 'Filipino', native: 'Filipino' },
  { code: 'zh', name: 'Chinese', native: '中文' },
  { code: 'ja', name: 'Japanese', native: '日本語' },
  { code: 'ko', name: 'Korean', native: '한국어' },
  { code: 'sv', name: 'Swedish', native: 'Svenska' },
  { code: 'no', name: 'Norwegian', native: 'Norsk' },
  { code: 'da', name: 'Danish', native: 'Dansk' },
  { code: 'fi', name: 'Finnish', native: 'Suomi' },
  { code: 'cs', name: 'Czech', native: 'Čeština' },
  { code: 'sk', name: 'Slovak', native: 'Slovenčina' },
  { code: 'hu', name: 'Hungarian', native: 'Magyar' },
  { code: 'ro', name: 'Romanian', native: 'Română' },
  { code: 'bg', name: 'Bulgarian', native: 'Български' },
  { code: 'el', name: 'Greek', native: 'Ελληνικά' },
  { code: 'sr', name: 'Serbian', native: 'Српски' },
  { code: 'hr', name: 'Croatian', native: 'Hrvatski' },
  { code: 'lt', name: 'Lithuanian', native: 'Lietuvių' },
  { code: 'lv', name: 'Latvian', native: 'Latviešu' },
  { code: 'et', name: 'Estonian', native: 'Eesti' },
  { code: 'sl', name: 'Slovenian', native: 'Slovenščina' },
] as const satisfies readonly { code: string; name: string; native: string }[];

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
/** The codes alone, as zod's enum wants them. */
export const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as [LanguageCode, ...LanguageCode[]];

/** A language by code (any case), or undefined. */
export function getLanguage(code: string | null | undefined): (typeof LANGUAGES)[number] | undefined {
  const wanted = code?.toLowerCase();
  return LANGUAGES.find((l) => l.code === wanted);
}

/** How a card or page names a listing's language: "English", "Deutsch (German)". */
export function languageLabel(code: string | null | undefined): string | undefined {
  const l = getLanguage(code);
  if (!l) return undefined;
  return l.native === l.name ? l.name : `${l.native} (${l.name})`;
}

/** Browser tags whose primary subtag is another code of the same language here. */
const TAG_ALIASES: Record<string, string> = { nb: 'no', nn: 'no', fil: 'tl', iw: 'he', in: 'id' };

/**
 * The first of a browser's preferred languages (navigator.languages: 'de-AT', 'en') that the
 * directory knows, by its primary subtag; undefined when none is. Offered as a one-click filter,
 * never applied by itself.
 */
export function preferredLanguage(preferences: readonly string[]): LanguageCode | undefined {
  for (const tag of preferences) {
    const primary = tag.split('-')[0]?.toLowerCase() ?? '';
    const l = getLanguage(TAG_ALIASES[primary] ?? primary);
    if (l) return l.code;
  }
  return undefined;
}
