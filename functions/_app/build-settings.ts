import type { Env } from './env';

/**
 * The settings both the build and the Worker read: the build writes them into every page (the
 * canonical origin, the support address, Turnstile's widget), the Worker answers with them (the
 * pages it renders on request, origin checks, the Turnstile check). One source for both, wrangler.toml
 * `[vars]`: `npm run deploy` passes those to the build, and refuses to deploy, as the Worker
 * refuses to start, when the build's values and the Worker's differ.
 */
export const BUILD_SETTING_NAMES = [
  'SITE_URL',
  'SUPPORT_EMAIL',
  'TURNSTILE_SITE_KEY',
  // The refresh's pace: the help page states the listings a day it covers.
  'REFRESH_LOOKUPS_PER_PASS',
] as const;
export type BuildSettingName = (typeof BUILD_SETTING_NAMES)[number];

/** The values of the shared settings as a page shows them (SUPPORT_EMAIL with its default applied); null when unset. */
export type BuildSettings = Record<BuildSettingName, string | null>;

/** The shared settings of a parsed environment. */
export function buildSettingsOf(env: Pick<Env, BuildSettingName>): BuildSettings {
  return {
    SITE_URL: env.SITE_URL,
    SUPPORT_EMAIL: env.SUPPORT_EMAIL,
    TURNSTILE_SITE_KEY: env.TURNSTILE_SITE_KEY ?? null,
    REFRESH_LOOKUPS_PER_PASS: env.REFRESH_LOOKUPS_PER_PASS === undefined ? null : String(env.REFRESH_LOOKUPS_PER_PASS),
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
