import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Whether a process with this id is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `fn` while no other test process of this checkout runs one under the same `name`: for work
 * that shares a file of the checkout. A Cloudflare build (`npm run deploy -- --dry-run`) writes
 * `.wrangler/deploy/config.json` at the project root and reads it back to prerender, so two at once
 * read each other's Worker config. The lock is a directory (made atomically) holding its owner's
 * pid; one whose owner died is taken over. Waits by polling, without a deadline of its own (the
 * caller's hook timeout is the limit).
 */
export async function exclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = join(process.cwd(), '.tmp', 'locks', name);
  mkdirSync(join(dir, '..'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner = 0;
      try {
        owner = Number(readFileSync(join(dir, 'pid'), 'utf8'));
      } catch {
        // made a moment ago, its pid not written yet
      }
      if (owner && !alive(owner)) rmSync(dir, { recursive: true, force: true });
      else await new Promise((ok) => setTimeout(ok, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
