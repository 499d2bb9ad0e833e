import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { rawProcessEnv } from '../../functions/_app/env';

const root = resolve(import.meta.dirname, '../..');

/**
 * Runs one of the project's scripts with tsx in a child process, as `npm run` would, from the
 * project's folder (no telemetry, wrangler's metrics off, `env` on top of this process's), and
 * answers its exit code and everything it wrote to stdout and stderr.
 */
export function runScript(
  script: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), script, ...args], {
      cwd: root,
      env: rawProcessEnv({ ASTRO_TELEMETRY_DISABLED: '1', WRANGLER_SEND_METRICS: 'false', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.once('error', fail);
    child.once('close', (code) => ok({ code, out }));
  });
}
