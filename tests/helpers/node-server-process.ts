// The production server as `npm start` runs it (functions/_app/node.ts), in a process of its own so
// a test can kill it for real: the settings come from the environment, the builds go to
// TEST_BUILDS_DIR (inside the project, as tests/e2e/fixtures.ts explains) instead of ./.builds.
import { resolve } from 'node:path';
import { loadEnv, rawProcessEnv } from '../../functions/_app/env';
import { startNodeServer } from '../../functions/_app/node';

const given = rawProcessEnv();
await startNodeServer({
  env: loadEnv(given),
  root: resolve('.'),
  ...(given.TEST_BUILDS_DIR ? { buildsDir: given.TEST_BUILDS_DIR } : {}),
});
