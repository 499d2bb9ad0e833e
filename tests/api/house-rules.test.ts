// The project's one-home rules, checked over the source tree (STYLE.md, issue #14): settings are
// read from the environment in one module, SQL is written in db/queries only, and the data layer
// never reaches up into the HTTP layer. Each failure names the file and line to fix.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** What is scanned: the source folders and the two root configs. */
const SCANNED = ['src', 'functions', 'db', 'scripts', 'bench', 'astro.config.mjs', 'drizzle.config.ts'];
const SOURCE = /\.(ts|tsx|mts|mjs|js|astro)$/;

/** Every scanned source file, as a path relative to the root with forward slashes. */
function sourceFiles(): string[] {
  const out: string[] = [];
  const visit = (path: string) => {
    const rel = relative(root, path).split('\\').join('/');
    if (statSync(path).isDirectory()) {
      if (rel === 'db/migrations' || rel.endsWith('node_modules')) return;
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (SOURCE.test(rel) && !/\.test\.tsx?$/.test(rel)) {
      out.push(rel);
    }
  };
  for (const entry of SCANNED) visit(join(root, entry));
  return out.sort();
}

interface Line {
  file: string;
  number: number;
  text: string;
}

/** The code lines of every scanned file; whole-line comments are prose, not code. */
function codeLines(): Line[] {
  return sourceFiles().flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .map((text, i) => ({ file, number: i + 1, text }))
      .filter(({ text }) => !/^\s*(\/\/|\/\*|\*)/.test(text)),
  );
}

const lines = codeLines();
const where = (l: Line) => `${l.file}:${l.number}: ${l.text.trim()}`;

/** SQL written as code: drizzle's sql`` tag, a client's execute/prepare, or a statement in a string. */
const SQL = [/(?<![\w.])sql`/, /\.execute\(/, /\.prepare\(/, /['"`](SELECT|INSERT|UPDATE|DELETE|PRAGMA|CREATE)\s/];

/**
 * The few places SQL may stand outside db/queries, each as narrow as one kind of line:
 * - db/schema.ts: column defaults and view definitions in drizzle's sql`` tag (drizzle-kit reads
 *   the schema from this file alone);
 * - db/client.ts and db/write-thread.ts (the connection whose thread commits the hot-path writes):
 *   PRAGMA statements that set up each connection, and the native driver preparing a statement
 *   handed to it (`.prepare(sql)`: the statements themselves come from db/queries);
 * - db/prepared.ts: a statement the query layer built (`readBuilt`) handed on to the client where
 *   no prepared connection exists (the Worker);
 * - bench/build.ts: the baseline is another, bare Astro project whose page source is written out
 *   as text; its one query belongs to that project, not to this one;
 * - bench/storage.ts: what it measures is the client under the query layer (SQLite's busy timeout
 *   against the storage seam), so its lock holder and its one insert talk to the clients directly.
 */
function sqlAllowed(l: Line): boolean {
  if (l.file === 'db/schema.ts') return SQL[0]!.test(l.text) && !/\.execute\(|\.prepare\(/.test(l.text);
  if (l.file === 'db/write-thread.ts') return /\.exec\('PRAGMA [a-z_]+ = [A-Z]+'\)|\.prepare\(sql\)/.test(l.text);
  if (l.file === 'db/prepared.ts') return /\.execute\(\{ sql: query\.sql, args \}\)/.test(l.text);
  if (l.file === 'db/client.ts')
    return (
      /['"]PRAGMA [a-z_]+( = [A-Z]+)?['"]/.test(l.text) ||
      /\.prepare\(sql\)/.test(l.text) ||
      // The lock-tolerant wrapper hands the query layer's statements on unchanged.
      /this\.inner\.execute\(stmt/.test(l.text)
    );
  if (l.file === 'bench/build.ts') return /client\.execute\('SELECT id, name FROM discord_servers'\)/.test(l.text);
  if (l.file === 'bench/storage.ts')
    return (
      /holder\.exec\("UPDATE job_state SET last_run_at = 'held' WHERE 0"\)/.test(l.text) ||
      /c\.execute\(`INSERT INTO job_state \(name, last_run_at\) VALUES/.test(l.text)
    );
  return false;
}

/** The module specifiers a line imports (static and dynamic imports, re-exports). */
const importsOf = (text: string): string[] =>
  [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);

describe('house rules', () => {
  it('scans the source tree', () => {
    const files = new Set(lines.map((l) => l.file));
    for (const file of ['functions/_app/env.ts', 'db/schema.ts', 'src/data/site-data.ts', 'astro.config.mjs']) {
      expect(files).toContain(file);
    }
  });

  it('reads process.env only in functions/_app/env.ts', () => {
    const found = lines.filter((l) => l.file !== 'functions/_app/env.ts' && /\bprocess\.env\b/.test(l.text));
    expect(found.map(where)).toEqual([]);
  });

  it('writes SQL only in db/queries', () => {
    const found = lines.filter(
      (l) => !l.file.startsWith('db/queries/') && SQL.some((re) => re.test(l.text)) && !sqlAllowed(l),
    );
    expect(found.map(where)).toEqual([]);
  });

  it('keeps db/ from importing anything in functions/', () => {
    const functionsDir = join(root, 'functions');
    const found = lines.filter(
      (l) =>
        l.file.startsWith('db/') &&
        importsOf(l.text).some(
          (spec) => spec.startsWith('.') && resolve(dirname(join(root, l.file)), spec).startsWith(functionsDir),
        ),
    );
    expect(found.map(where)).toEqual([]);
  });
});
