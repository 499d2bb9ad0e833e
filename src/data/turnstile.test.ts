import { describe, expect, it } from 'vitest';
import { turnstileSiteKey } from './turnstile';

describe('turnstileSiteKey', () => {
  it('gives the site key when both keys are set', () => {
    expect(turnstileSiteKey({ TURNSTILE_SITE_KEY: 'site', TURNSTILE_SECRET: 'secret' })).toBe('site');
  });

  it('gives nothing when either key is missing', () => {
    expect(turnstileSiteKey({ TURNSTILE_SITE_KEY: 'site', TURNSTILE_SECRET: undefined })).toBeUndefined();
    expect(turnstileSiteKey({ TURNSTILE_SITE_KEY: undefined, TURNSTILE_SECRET: 'secret' })).toBeUndefined();
    expect(turnstileSiteKey({ TURNSTILE_SITE_KEY: undefined, TURNSTILE_SECRET: undefined })).toBeUndefined();
  });
});
