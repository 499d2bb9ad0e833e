import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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
 * Runs `fn` while no other process holds the lock `lockDir`: for work that shares a file of the
 * checkout. A Cloudflare build (`astro build` with ASTRO_ADAPTER=cloudflare) writes
 * `.wrangler/deploy/config.json` at the project root and reads it back to prerender, so two at
 * once (two deploys from one checkout, or the tests' deploys side by side) read each other's Worker
 * config. The lock is a directory (made atomically) holding its owner's pid; one whose owner died
 * is taken over. Waits by polling, without a deadline of its own; `onWait` is called once, with
 * the holder's pid, when it has to wait.
 */
export async function exclusive<T>(
  lockDir: string,
  fn: () => T | Promise<T>,
  onWait?: (holder: number) => void,
): Promise<T> {
  mkdirSync(dirname(lockDir), { recursive: true });
  let told = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(`${lockDir}/pid`, String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let owner = 0;
      try {
        owner = Number(readFileSync(`${lockDir}/pid`, 'utf8'));
      } catch {
        // made a moment ago, its pid not written yet
      }
      if (owner && !alive(owner)) rmSync(lockDir, { recursive: true, force: true });
      else {
        if (owner && !told) {
          told = true;
          onWait?.(owner);
        }
        await new Promise((ok) => setTimeout(ok, 250));
      }
    }
  }
  // Released when `fn` ends, and also when the process exits inside it (a script's process.exit).
  const release = () => rmSync(lockDir, { recursive: true, force: true });
  process.once('exit', release);
  try {
    return await fn();
  } finally {
    process.off('exit', release);
    release();
  }
}
