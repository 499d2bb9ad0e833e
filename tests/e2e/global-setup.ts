import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildTemplateSite, TEMPLATE_DIR_VAR } from './fixtures';

/**
 * Builds the run's template site once (fixtures.ts, buildTemplateSite): the shared site of each
 * worker and every spec site without rows or settings of its own start from copies of it.
 * The workers find it through the environment; the teardown removes it. `npm test` builds it
 * beside vitest (tests/e2e/build-template.ts) and passes its folder in the same variable: then
 * it is used as it is, and removed by `npm test`.
 */
export default async function globalSetup(): Promise<() => void> {
  const given = process.env[TEMPLATE_DIR_VAR];
  if (given && existsSync(join(given, 'builds', 'current'))) return () => {};
  const dir = mkdtempSync(join(process.cwd(), '.tmp', 'e2e-template-'));
  await buildTemplateSite(dir);
  process.env[TEMPLATE_DIR_VAR] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
