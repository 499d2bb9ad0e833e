import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exclusive } from '../../scripts/lib/exclusive';

const dir = mkdtempSync(join(tmpdir(), 'exclusive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('exclusive (one Cloudflare build of a checkout at a time)', () => {
  it('runs holders of one lock one after another, each told whom it waits for, and frees the lock', async () => {
    const lock = join(dir, 'one.lock');
    const log: string[] = [];
    const waited: number[] = [];
    const holder = (name: string) =>
      exclusive(
        lock,
        async () => {
          log.push(`${name} in`);
          await new Promise((ok) => setTimeout(ok, 50));
          log.push(`${name} out`);
          return name;
        },
        (pid) => waited.push(pid),
      );
    expect(await Promise.all([holder('a'), holder('b'), holder('c')])).toEqual(['a', 'b', 'c']);
    // Never two inside at once.
    for (let i = 0; i < log.length; i += 2) expect(log[i + 1]).toBe(log[i]!.replace(' in', ' out'));
    expect(waited).toEqual([process.pid, process.pid]);
    // Free again: taken at once.
    expect(await exclusive(lock, () => 'again')).toBe('again');
  });

  it("takes over a lock whose holder died, and frees it when the holder's process exits inside", async () => {
    const lock = join(dir, 'dead.lock');
    // A pid no process has: a short-lived child's, once it has exited.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), gone.stdout);
    expect(await exclusive(lock, () => 'taken over')).toBe('taken over');
    // A holder that exits inside (a script's process.exit) leaves no lock behind.
    const script = `import('${join(import.meta.dirname, '../../scripts/lib/exclusive.ts')}').then(({ exclusive }) => exclusive(${JSON.stringify(lock)}, () => process.exit(3)))`;
    const exited = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
    expect(exited.status).toBe(3);
    expect(
      await exclusive(
        lock,
        () => 'free',
        () => expect.unreachable('the lock was left behind'),
      ),
    ).toBe('free');
  });
});
