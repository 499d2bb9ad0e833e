// `npm run bench [-- --only name[,name]] [--quick]`: runs every bench module, prints the
// tables and writes BENCHMARKS.md. Baselines are measured in the same run as the figures.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchModule, BenchSection } from './types';

/** Modules in the order they run; each is bench/<name>.ts exporting `bench`. */
const MODULES = ['seed', 'build', 'api', 'pages', 'approval', 'scale'];

const { values } = parseArgs({ options: { only: { type: 'string' }, quick: { type: 'boolean', default: false } } });
const only = values.only?.split(',');
const root = process.cwd();
const tmp = mkdtempSync(join(tmpdir(), 'guildrank-bench-'));
process.env.ASTRO_TELEMETRY_DISABLED = '1';

const table = (rows: (string | number)[][]) => {
  const [head, ...body] = rows.map((r) => r.map(String));
  if (!head) return '';
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...body.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
};

const sections: BenchSection[] = [];
try {
  for (const name of MODULES) {
    if (only && !only.includes(name)) continue;
    let mod: { bench?: BenchModule };
    try {
      mod = await import(`./${name}.ts`);
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String(err).includes(`${name}.ts`)) continue;
      throw err;
    }
    if (!mod.bench) continue;
    console.log(`\n== ${name} ==`);
    const result = await mod.bench({ root, tmp: join(tmp, name), quick: values.quick, log: (l) => console.log(l) });
    for (const section of result) {
      console.log(`\n${section.title}\n${table(section.rows)}\n${(section.notes ?? []).join('\n')}`);
      sections.push(section);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const header = `# Benchmarks\n\nWritten by \`npm run bench\`${values.quick ? ' --quick' : ''} on ${new Date().toISOString().slice(0, 10)}: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Every ratio compares with a baseline measured in the same run.\n`;
const body = sections
  .map(
    (s) =>
      `## ${s.title}\n\n${s.description ? `${s.description}\n\n` : ''}${table(s.rows)}\n${s.notes?.length ? `\n${s.notes.map((n) => `- ${n}`).join('\n')}\n` : ''}`,
  )
  .join('\n');
if (!only) writeFileSync(join(root, 'BENCHMARKS.md'), `${header}\n${body}`);
else console.log('\n(--only: BENCHMARKS.md left as it was)');
