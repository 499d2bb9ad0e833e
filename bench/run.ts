// `npm run bench [-- --only name[,name]] [--quick] [--events] [--db file]`: runs every bench module, prints the
// tables and writes BENCHMARKS.md. Baselines are measured in the same run as the figures.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setProcessEnv } from '../functions/_app/env';
import type { BenchModule, BenchSection } from './types';

/** Modules in the order they run; each is bench/<name>.ts exporting `bench`. */
const MODULES = [
  'seed',
  'build',
  'api',
  'pages',
  'approval',
  'scale',
  'rank',
  'refresh',
  'badges',
  'storage',
  'million',
  'render-flood',
];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    quick: { type: 'boolean', default: false },
    events: { type: 'boolean', default: false },
    db: { type: 'string' },
  },
});
const only = values.only?.split(',');
const root = process.cwd();
const tmp = mkdtempSync(join(tmpdir(), 'guildrank-bench-'));
setProcessEnv({ ASTRO_TELEMETRY_DISABLED: '1' });

const table = (rows: (string | number)[][]) => {
  const [head, ...body] = rows.map((r) => r.map(String));
  if (!head) return '';
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...body.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
};

const header = `# Benchmarks\n\nWritten by \`npm run bench\` on this project's 2-core machine class: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Every ratio compares with a baseline measured in the same run; each section says when it was last measured.\n`;
const render = (s: BenchSection) =>
  `## ${s.title}\n\n_Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC${values.quick ? ' (--quick)' : ''}._ ${s.description ?? ''}\n\n${table(s.rows)}\n${s.notes?.length ? `\n${s.notes.map((n) => `- ${n}`).join('\n')}\n` : ''}`;

// Sections measured now replace their namesakes; sections not re-run are kept as they were.
/** Writes BENCHMARKS.md with every section measured so far (after each module, so a stopped run keeps its figures). */
function writeReport(sections: BenchSection[]): void {
  const file = join(root, 'BENCHMARKS.md');
  const kept = new Map<string, string>();
  if (existsSync(file)) {
    for (const chunk of readFileSync(file, 'utf8')
      .split(/^(?=## )/m)
      .slice(1)) {
      kept.set(chunk.split('\n')[0]!.slice(3).trim(), chunk.trimEnd());
    }
  }
  for (const s of sections) kept.set(s.title, render(s).trimEnd());
  writeFileSync(file, `${header}\n${[...kept.values()].join('\n\n')}\n`);
  console.log(`\nBENCHMARKS.md updated (${sections.length} section(s) measured now).`);
}

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
    const result = await mod.bench({
      root,
      tmp: join(tmp, name),
      quick: values.quick,
      eventsOnly: values.events,
      db: values.db,
      log: (l) => console.log(l),
    });
    for (const section of result) {
      console.log(`\n${section.title}\n${table(section.rows)}\n${(section.notes ?? []).join('\n')}`);
      sections.push(section);
    }
    writeReport(sections);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
