// Server CPU per answered request, for comparing two versions of the code on a shared machine,
// where requests/s say more about the neighbours than about the code (docs/SCALING.md section 6).
// Forks bench/lib/api-server.ts from each source tree given (a checkout each, node_modules linked),
// over a fresh database of its own, then runs autocannon (50 connections, a fixed number of
// requests) against each tree's paths in turn, round after round in a rotating order, and reads
// the server process's CPU time from /proc (utime + stime, all threads and the main thread alone)
// before and after each run. Prints the median and the lowest figure per tree and path and, per
// round, the ratio of each tree to the first (adjacent runs meet the same load). Linux only.
//
//   npx tsx bench/lib/cpu-per-request.ts <rounds> <requests per run> <tree> [<tree>...]
//   PATHS=chain,fast,plain,hello (default chain,fast)  SIZE=<listings> (default 1000)
//   SIZES=<listings>,<listings>... one size per tree, in order (the same tree given twice with
//   SIZES=10000,100000 compares one code over two database sizes, run for run)
//   SERVER_ARGS="--cpu-prof --cpu-prof-dir=<dir>" to profile the servers (not in NODE_OPTIONS);
//   SERVER_ARGS_<i> for the server of the i-th tree only (from 0).
import { type ChildProcess, execFile, fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openDb } from '../../db/client';
import { insertFakeServers } from '../../db/fake';
import { migrateDb } from '../../db/migrate';
import { rawProcessEnv } from '../../functions/_app/env';
import type { ApiServerOptions, ApiServerReply } from './api-server';

const run = promisify(execFile);
const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const EVENT = JSON.stringify({ interaction_type: 'share', target_type: 'server', server_id: 1, session_id: 'bench' });
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS = 100;
const PATH_OF: Record<string, string> = {
  chain: '/api/events',
  plain: '/api/bench/events-through-chain',
  fast: '/api/bench/events-fast-path',
};

/** CPU seconds (user + system) of a process, or of one of its threads. */
function cpuSeconds(pid: number, tid?: number): number {
  const stat = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** CPU seconds of a process's threads other than the main one, summed by thread name (a worker thread's, V8's helpers...). */
function cpuByThreadName(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`).map(Number)) {
    if (tid === pid) continue;
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      byName.set(name, (byName.get(name) ?? 0) + cpuSeconds(pid, tid));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return byName;
}

interface Server {
  child: ChildProcess;
  port: number;
  helloPort: number;
}

async function start(tree: string, url: string, index: number): Promise<Server> {
  const options: ApiServerOptions = {
    url,
    discordUrl: 'http://127.0.0.1:9',
    eventsThroughChain: PATH_OF.plain!,
    eventsFastPath: PATH_OF.fast!,
  };
  const serverArgs = rawProcessEnv()[`SERVER_ARGS_${index}`] ?? rawProcessEnv().SERVER_ARGS;
  const extra = serverArgs ? serverArgs.split(' ') : [];
  const child = fork(join(tree, 'bench/lib/api-server.ts'), [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx', ...extra],
    cwd: tree,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const listening = await new Promise<Extract<ApiServerReply, { type: 'listening' }>>((resolve, reject) => {
    child.on('message', (m: ApiServerReply) => m.type === 'listening' && resolve(m));
    child.once('exit', (code) => reject(new Error(`the server of ${tree} exited (${code})`)));
  });
  return { child, port: listening.port, helloPort: listening.helloPort };
}

const urlOf = (s: Server, path: string) =>
  path === 'hello' ? `http://127.0.0.1:${s.helloPort}/hello` : `http://127.0.0.1:${s.port}${PATH_OF[path]}`;

/** One autocannon run of `amount` requests; answers the 2xx count and the rest. */
async function load(url: string, amount: number, post: boolean): Promise<{ ok: number; bad: number }> {
  const args = [autocannon, '-c', '50', '-a', String(amount), '-j', '-n'];
  if (post) args.push('-m', 'POST', '-H', 'content-type=application/json', '-b', EVENT);
  args.push(url);
  const { stdout } = await run(process.execPath, args, { maxBuffer: 1 << 26 });
  const r = JSON.parse(stdout) as { '2xx': number; non2xx: number; errors: number; timeouts: number };
  return { ok: r['2xx'], bad: r.non2xx + r.errors + r.timeouts };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const us = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');

async function main(): Promise<void> {
  const [roundsArg, amountArg, ...trees] = process.argv.slice(2);
  const rounds = Number(roundsArg);
  const amount = Number(amountArg);
  if (!(rounds > 0 && amount > 0 && trees.length)) throw new Error('usage: <rounds> <requests> <tree>...');
  const paths = (rawProcessEnv().PATHS ?? 'chain,fast').split(',');
  const dir = mkdtempSync(join(tmpdir(), 'cpu-per-request-'));
  const servers: Server[] = [];
  const sizes = rawProcessEnv().SIZES?.split(',').map(Number);
  for (const [i, tree] of trees.entries()) {
    const url = `file:${join(dir, `${i}.db`)}`;
    const { db, client } = await openDb({ url });
    await migrateDb(db);
    await insertFakeServers(client, sizes?.[i] ?? Number(rawProcessEnv().SIZE ?? 1000));
    client.close();
    servers.push(await start(tree, url, i));
  }
  const loadBefore = loadavg();
  // The same warm-up for every tree and path.
  for (const s of servers) for (const p of paths) await load(urlOf(s, p), 3000, p !== 'hello');
  const runs = servers.flatMap((s, i) => paths.map((p) => ({ s, key: `${i}:${p}`, p })));
  const figures = new Map(
    runs.map((r) => [r.key, { all: [] as number[], main: [] as number[], threads: new Map<string, number[]>() }]),
  );
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < runs.length; k++) {
      const { s, key, p } = runs[(k + round) % runs.length]!;
      const pid = s.child.pid!;
      const [all0, main0, threads0] = [cpuSeconds(pid), cpuSeconds(pid, pid), cpuByThreadName(pid)];
      const { ok, bad } = await load(urlOf(s, p), amount, p !== 'hello');
      // The last answers' writes and the write thread's work settle.
      await new Promise((r) => setTimeout(r, 200));
      const f = figures.get(key)!;
      f.all.push(((cpuSeconds(pid) - all0) / ok) * 1e6);
      f.main.push(((cpuSeconds(pid, pid) - main0) / ok) * 1e6);
      for (const [name, seconds] of cpuByThreadName(pid)) {
        const list = f.threads.get(name) ?? [];
        list.push(((seconds - (threads0.get(name) ?? 0)) / ok) * 1e6);
        f.threads.set(name, list);
      }
      if (bad) console.log(`${key}: ${bad} answers not 2xx`);
    }
  }
  const fmt = (l: number[]) => l.map((x) => x.toFixed(1)).join(' / ');
  console.log(`load average before ${fmt(loadBefore)}, after ${fmt(loadavg())}; µs of server CPU per 2xx answer`);
  for (const [key, f] of figures) {
    console.log(
      `${key} main thread median ${median(f.main).toFixed(0)}, lowest ${Math.min(...f.main).toFixed(0)} (${us(f.main)}); all threads median ${median(f.all).toFixed(0)}, lowest ${Math.min(...f.all).toFixed(0)} (${us(f.all)})`,
    );
    const threads = [...f.threads].map(([name, l]) => `${name} ${median(l).toFixed(0)}`).join(', ');
    console.log(`${key} other threads by name, median: ${threads}`);
  }
  for (let t = 1; t < servers.length; t++) {
    for (const p of paths) {
      const a = figures.get(`0:${p}`)!;
      const b = figures.get(`${t}:${p}`)!;
      const main = a.main.map((x, k) => b.main[k]! / x);
      const all = a.all.map((x, k) => b.all[k]! / x);
      console.log(
        `${p}: tree ${t} / tree 0 per round, main thread median ${median(main).toFixed(2)} (${main
          .map((x) => x.toFixed(2))
          .sort()
          .join(' ')}), all threads median ${median(all).toFixed(2)}`,
      );
    }
  }
  for (const s of servers) s.child.send('close');
}

await main();
