import { describe, expect, it } from 'vitest';
import { turnstileSiteKey } from './turnstile';

describe('turnstileSiteKey', () => {
  it('gives the site key the build has (the secret is the server’s alone)', () => {
    expect(turnstileSiteKey({ TURNSTILE_SITE_KEY: 'site' })).toBe('site');
  });

  it('gives nothing without a site key', () => {
    expect(turnstileSiteKey({ TURNSTILE_SITE_KEY: null })).toBeUndefined();
  });
});
