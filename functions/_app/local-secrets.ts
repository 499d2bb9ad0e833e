import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomSecret, SECRET_NAMES } from './env';

/**
 * The secrets of a local `npm start` that were not set in the environment: made at random on the
 * first start and kept in `path` (git-ignored, readable by the owner only), so unsubscribe links
 * and IP hashes stay valid across restarts without anyone choosing a secret by hand.
 */
export function localSecrets(path: string, env: Record<string, string | undefined>): Record<string, string> {
  let kept: Record<string, string> = {};
  if (existsSync(path)) kept = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
  let changed = false;
  const out: Record<string, string> = {};
  for (const name of SECRET_NAMES) {
    if (env[name]) continue;
    if (!kept[name]) {
      kept[name] = randomSecret();
      changed = true;
    }
    out[name] = kept[name];
  }
  if (changed) {
    writeFileSync(path, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return out;
}
