import type { RebuildTrigger } from '../context';

/** The server pages of some listings (a missing slug is skipped). */
export const serverPaths = (slugs: readonly (string | undefined)[]): string[] =>
  slugs.filter((s): s is string => Boolean(s)).map((s) => `/server/${s}`);

/**
 * Asks the public pages to catch up with a change visitors see (the trigger coalesces changes) and
 * resolves once the change is recorded, so it survives a restart. `pages`: the server pages of the
 * listings it changes. With them the change touches only those listings (their pages, the listing
 * pages they stand in, the home), which Node publishes without a full build; with none the whole
 * site is built.
 */
export async function requestPublish(
  rebuild: RebuildTrigger | undefined,
  reason: string,
  pages: readonly string[] = [],
): Promise<void> {
  await rebuild?.request(reason, pages, pages.length > 0 ? 'listings' : 'site');
}
