import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deploymentFacts } from '../../src/data/site-data';
import { BUILD_SETTING_NAMES, type BuildSettings, buildSettingsOf, settingsDrift } from './build-settings';
import { loadEnv } from './env';

const value = fc.option(fc.constantFrom('https://a.example', 'https://b.example', 'help@a.example', 'key-1', 'key-2'), {
  nil: null,
});
const settings = fc.record(
  Object.fromEntries(BUILD_SETTING_NAMES.map((n) => [n, value])),
) as fc.Arbitrary<BuildSettings>;

describe('settingsDrift', () => {
  it('names exactly the settings whose values differ', () => {
    fc.assert(
      fc.property(settings, settings, (a, b) => {
        const drift = settingsDrift(a, b);
        const differing = BUILD_SETTING_NAMES.filter((n) => a[n] !== b[n]);
        expect(drift.map((line) => line.split(':')[0])).toEqual(differing);
        expect(settingsDrift(a, a)).toEqual([]);
      }),
    );
  });

  it('compares SUPPORT_EMAIL as pages show it: its default is support@ the SITE_URL host', () => {
    const build = buildSettingsOf(loadEnv({ SITE_URL: 'https://guildrank.example' }));
    expect(build.SUPPORT_EMAIL).toBe('support@guildrank.example');
    const worker = buildSettingsOf(
      loadEnv({ SITE_URL: 'https://guildrank.example', SUPPORT_EMAIL: 'help@guildrank.example' }),
    );
    expect(settingsDrift(build, worker)).toEqual([
      'SUPPORT_EMAIL: the build used "support@guildrank.example", the Worker has "help@guildrank.example"',
    ]);
  });
});

describe('the settings pages state', () => {
  it('are all shared: two deployments whose pages would state different facts differ in a compared setting', () => {
    // Every setting deploymentFacts reads that is not a secret (payments come from the Stripe secrets).
    const setting = {
      SITE_URL: fc.constantFrom('https://a.example', 'https://b.example'),
      SUPPORT_EMAIL: fc.constantFrom(undefined, 'help@a.example'),
      REFRESH_PER_10MIN: fc.constantFrom(undefined, '80', '160'),
      REFRESH_LOOKUPS_PER_PASS: fc.constantFrom(undefined, '4', '8'),
      MIN_MEMBERS: fc.constantFrom(undefined, '50', '100'),
      SPONSORED_SLOTS_PER_CATEGORY: fc.constantFrom(undefined, '2', '3'),
    };
    const env = fc.record(setting, { requiredKeys: [] }).map((vars) => loadEnv(vars));
    fc.assert(
      fc.property(env, env, (build, worker) => {
        if (isDeepStrictEqual(deploymentFacts(build), deploymentFacts(worker))) return;
        expect(settingsDrift(buildSettingsOf(build), buildSettingsOf(worker))).not.toEqual([]);
      }),
    );
  });
});
