// `tsx tests/e2e/build-template.ts <dir>`: builds the e2e run's template site into <dir> (fixtures.ts,
// buildTemplateSite). `npm test` starts it in the background beside vitest and hands the folder to
// Playwright's global setup (GUILDRANK_E2E_TEMPLATE), which then builds nothing.
import { buildTemplateSite } from './fixtures';

const dir = process.argv[2];
if (!dir) throw new Error('usage: tsx tests/e2e/build-template.ts <dir>');
await buildTemplateSite(dir);
console.log(`Template site built in ${dir}`);
