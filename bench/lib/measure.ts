import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { rawProcessEnv } from '../../functions/_app/env';

/** Resident memory of a process and all its descendants, in bytes (Linux /proc). */
function treeRss(pid: number): number {
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
      if (kb) total += Number(kb) * 1024;
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        if (children) stack.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // the process ended between reads
    }
  }
  return total;
}

export interface Measured {
  ms: number;
  /** Peak resident memory of the whole process tree, sampled every 50 ms. */
  peakRssBytes: number;
  output: string;
}

/** Runs a command to completion, timing it and sampling the peak memory of its process tree. */
export function runMeasured(
  cmd: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: rawProcessEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (d: Buffer) => {
      output = (output + d.toString()).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let peak = 0;
    const timer = setInterval(() => {
      if (child.pid) peak = Math.max(peak, treeRss(child.pid));
    }, 50);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${output}`));
      else resolve({ ms, peakRssBytes: peak, output });
    });
  });
}

/** Seconds with one decimal. */
export const seconds = (ms: number): string => (ms / 1000).toFixed(1);
/** Mebibytes, whole. */
export const mib = (bytes: number): string => String(Math.round(bytes / 2 ** 20));
