import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A file that runs `npm run deploy` (a Cloudflare build, one at a time per checkout: scripts/lib/exclusive.ts). */
const RUNS_DEPLOY = /scripts\/deploy\.ts/;
/** A file that builds the site or runs a server, a script or workerd in a child process: tens of seconds each. */
const SPAWNS_WORK = /\b(runAstroBuild|runScript|startNodeServer|startWranglerDev|startEdgeStack|spawnSync|spawn)\(/;

/**
 * Vitest orders files by their last durations, and a clean clone has none: it falls back to the
 * largest file first, which starts the slowest files (the site builds, the Cloudflare builds that
 * wait on one another) late, so the run ends on them. This starts the files that run a deploy
 * first (their Cloudflare builds take turns: the longest path), then the other files that build or
 * spawn, then the rest in vitest's own order, so the short files fill the end of the run.
 */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const source = new Map(sorted.map((f) => [f, safeRead(f.moduleId)]));
    const rank = (f: TestSpecification) => {
      const text = source.get(f) ?? '';
      return RUNS_DEPLOY.test(text) ? 0 : SPAWNS_WORK.test(text) ? 1 : 2;
    };
    // Array.prototype.sort is stable: within a rank, vitest's order stays.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
