import type { Env } from './env';

/**
 * The settings both the build and the Worker read: the build writes them into every page (the
 * canonical origin, the support address, Turnstile's widget, the facts the help, requirements and
 * pricing pages state), the Worker answers with them (the pages it renders on request, origin
 * checks, the Turnstile check) and acts on them (the refresh's pace, the member minimum, the
 * Sponsored cap). One source for both, wrangler.toml `[vars]`: `npm run deploy` passes those to the
 * build, and refuses to deploy, as the Worker refuses to start, when the build's values and the
 * Worker's differ. Every setting src/data/site-data.ts deploymentFacts reads is here, but the
 * Stripe secrets (a test holds the two lists together).
 */
export const BUILD_SETTING_NAMES = [
  'SITE_URL',
  'SUPPORT_EMAIL',
  'TURNSTILE_SITE_KEY',
  // The refresh's budget and pace: the help page states the listings a day they cover.
  'REFRESH_PER_10MIN',
  'REFRESH_LOOKUPS_PER_PASS',
  // The listing requirement on size (/requirements, the help page) and the Sponsored cap (/pricing).
  'MIN_MEMBERS',
  'SPONSORED_SLOTS_PER_CATEGORY',
] as const;
export type BuildSettingName = (typeof BUILD_SETTING_NAMES)[number];

/** The values of the shared settings as a page shows them (defaults applied, numbers as text); null when unset. */
export type BuildSettings = Record<BuildSettingName, string | null>;

/** The shared settings of a parsed environment. */
export function buildSettingsOf(env: Pick<Env, BuildSettingName>): BuildSettings {
  const shown = (v: string | number | undefined) => (v === undefined ? null : String(v));
  return {
    SITE_URL: env.SITE_URL,
    SUPPORT_EMAIL: env.SUPPORT_EMAIL,
    TURNSTILE_SITE_KEY: shown(env.TURNSTILE_SITE_KEY),
    REFRESH_PER_10MIN: shown(env.REFRESH_PER_10MIN),
    REFRESH_LOOKUPS_PER_PASS: shown(env.REFRESH_LOOKUPS_PER_PASS),
    MIN_MEMBERS: shown(env.MIN_MEMBERS),
    SPONSORED_SLOTS_PER_CATEGORY: shown(env.SPONSORED_SLOTS_PER_CATEGORY),
  };
}

/** One line per shared setting whose build value differs from the Worker's, naming both; empty when they agree. */
export function settingsDrift(build: BuildSettings, worker: BuildSettings): string[] {
  const shown = (v: string | null) => (v === null ? '(unset)' : JSON.stringify(v));
  return BUILD_SETTING_NAMES.filter((name) => (build[name] ?? null) !== (worker[name] ?? null)).map(
    (name) => `${name}: the build used ${shown(build[name] ?? null)}, the Worker has ${shown(worker[name] ?? null)}`,
  );
}

/** Where the build records the shared settings it read: beside the Worker it bundles (`<outDir>/server/`). */
export const BUILD_SETTINGS_FILE = 'build-settings.json';
