import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { rawProcessEnv } from '../../functions/_app/env';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * One look at a process and all its descendants (Linux /proc): their resident memory in bytes,
 * and each one's CPU time so far (user + system, in ticks) by pid.
 */
function treeSample(pid: number): { rss: number; cpu: Map<number, number> } {
  let rss = 0;
  const cpu = new Map<number, number>();
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
      if (kb) rss += Number(kb) * 1024;
      // Fields 14 and 15 of stat (utime, stime), counted after the command name, which may hold spaces.
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpu.set(p, Number(fields[11]) + Number(fields[12]));
      for (const task of readdirSync(`/proc/${p}/task`)) {
        const children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8').trim();
        if (children) stack.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // the process ended between reads
    }
  }
  return { rss, cpu };
}

export interface Measured {
  ms: number;
  /** Peak resident memory of the whole process tree, sampled every 50 ms. */
  peakRssBytes: number;
  /**
   * CPU time (user + system) of the process tree, from the same samples: each process's last
   * sample, so up to 50 ms of each is missed. On a shared machine it moves far less than `ms`.
   */
  cpuMs: number;
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
    const cpuTicks = new Map<number, number>();
    const timer = setInterval(() => {
      if (!child.pid) return;
      const { rss, cpu } = treeSample(child.pid);
      peak = Math.max(peak, rss);
      for (const [pid, ticks] of cpu) cpuTicks.set(pid, Math.max(ticks, cpuTicks.get(pid) ?? 0));
    }, 50);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      const ms = performance.now() - started;
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${output}`));
      else {
        let ticks = 0;
        for (const t of cpuTicks.values()) ticks += t;
        resolve({ ms, peakRssBytes: peak, cpuMs: (ticks * 1000) / TICKS_PER_SECOND, output });
      }
    });
  });
}

/** Seconds with one decimal. */
export const seconds = (ms: number): string => (ms / 1000).toFixed(1);
/** Mebibytes, whole. */
export const mib = (bytes: number): string => String(Math.round(bytes / 2 ** 20));

/** Files under a folder: all of them, the .html pages among them, and their bytes. */
export function countFiles(dir: string): { files: number; html: number; bytes: number } {
  let files = 0;
  let html = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files++;
    if (entry.name.endsWith('.html')) html++;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, html, bytes };
}

/** A submission as the submit form sends it, for the approval benchmarks (approval.ts, million.ts). */
export const benchSubmission = (name: string, invite = 'https://discord.gg/bench') => ({
  server_name: name,
  server_description: 'A community created by an approval benchmark, with daily events.',
  category: 'Gaming',
  invite_link: invite,
  server_image: 'https://cdn.example.com/bench.png',
  contact_email: 'bench@example.com',
  features: 'Daily events',
  member_count: 1234,
  active_users: 100,
  submitter_name: 'Bench',
  is_owner: true,
});
