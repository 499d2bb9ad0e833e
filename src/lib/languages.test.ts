import { describe, expect, it } from 'vitest';
import { getLanguage, LANGUAGE_CODES, LANGUAGES, languageLabel, preferredLanguage } from './languages';

describe('languages', () => {
  it('lists each ISO 639-1 code once, with an English and a native name', () => {
    expect(new Set(LANGUAGE_CODES).size).toBe(LANGUAGES.length);
    for (const l of LANGUAGES) {
      expect(l.code).toMatch(/^[a-z]{2}$/);
      expect(l.name.length).toBeGreaterThan(1);
      expect(l.native.length).toBeGreaterThan(1);
    }
  });

  it('finds a language in any case and labels it in its own words too', () => {
    expect(getLanguage('DE')?.name).toBe('German');
    expect(getLanguage('xx')).toBeUndefined();
    expect(languageLabel('de')).toBe('Deutsch (German)');
    expect(languageLabel('en')).toBe('English');
    expect(languageLabel(null)).toBeUndefined();
  });

  it('offers the first browser language it knows, by its primary subtag and common aliases', () => {
    expect(preferredLanguage(['fr-CA', 'en-US'])).toBe('fr');
    expect(preferredLanguage(['x-klingon', 'pt-BR'])).toBe('pt');
    expect(preferredLanguage(['nb-NO'])).toBe('no');
    expect(preferredLanguage(['fil'])).toBe('tl');
    expect(preferredLanguage(['tlh'])).toBeUndefined();
    expect(preferredLanguage([])).toBeUndefined();
  });
});
