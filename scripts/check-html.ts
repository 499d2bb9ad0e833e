// Validates the built HTML with html-validate and checks that no internal link or asset of the
// build is broken. Usage: `npx tsx scripts/check-html.ts [build-dir]`; without a folder it seeds a
// temp database (samples + 120 fake servers, so category pages paginate) and builds into a temp dir.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { openDb } from '../db/client';
import { insertFakeServers } from '../db/fake';
import { migrateDb } from '../db/migrate';
import { countServers } from '../db/queries/servers';
import { seedIfEmpty } from '../db/seed';
import { rawProcessEnv } from '../functions/_app/env';

const root = process.cwd();
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

function run(cmd: string, args: string[], env: Record<string, string>): void {
  const res = spawnSync(cmd, args, {
    cwd: root,
    env: rawProcessEnv({ ASTRO_TELEMETRY_DISABLED: '1', ...env }),
    encoding: 'utf8',
  });
  if (res.status !== 0) {
    console.error(res.stdout, res.stderr);
    throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status}`);
  }
}

/** A temp folder holding the database, when no build folder was given. */
const temp = process.argv[2] ? null : mkdtempSync(join(tmpdir(), 'guildrank-html-'));
// The build goes inside the project: with an adapter (the on-demand pages, #18) Astro stages its
// prerender entry under the output folder, and there it must resolve the project's packages.
const staging = temp ? join(root, '.tmp', `check-html-${process.pid}`) : null;
const out = process.argv[2] ?? join(staging!, 'dist');
// The static files of a build are in its client/ folder (the server bundle beside it renders the long tail, #18).
const dir = join(out, 'client');
if (temp) {
  const env = { DATABASE_URL: `file:${join(temp, 'site.db')}` };
  console.log('Building the site into a temp folder…');
  // What `npm run db:seed` and `npm run db:fake -- --servers 120` write, written from this process:
  // each script in a tsx process of its own cost about 5 s of CPU, mostly loading the modules again.
  const { db, client } = await openDb({ url: env.DATABASE_URL });
  try {
    await migrateDb(db);
    await seedIfEmpty(db);
    await insertFakeServers(client, 120, 42, await countServers(db));
  } finally {
    client.close();
  }
  run(bin('astro'), ['build', '--outDir', out], env);
}

async function walk(d: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(d, { withFileTypes: true })) {
    const p = join(d, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(p)));
    else out.push(p);
  }
  return out;
}

const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  rules: {
    // Astro serialises boolean attributes and void elements its own way.
    'attribute-boolean-style': 'off',
    'void-style': 'off',
    'no-trailing-whitespace': 'off',
    // Long, descriptive SEO titles are intended.
    'long-title': 'off',
    // React renders the honeypot label around its input; both are hidden from people.
    'prefer-native-element': 'off',
    // HTML attribute names are case-insensitive; React's server renderer emits maxLength etc.
    'attr-case': 'off',
    'attribute-empty-style': 'off',
    // React's useId ids (e.g. _r1_) are valid HTML5 ids.
    'valid-id': ['error', { relaxed: true }],
  },
});

/** Does an internal URL resolve to a file of the build (as the static server would)? */
function resolves(pathname: string): boolean {
  const clean = decodeURIComponent(pathname);
  const base = join(dir, clean);
  const candidates = clean.endsWith('/')
    ? [join(base, 'index.html')]
    : extname(clean)
      ? [base]
      : [`${base}.html`, join(base, 'index.html')];
  return candidates.some((c) => existsSync(c) && statSync(c).isFile());
}

// Served by the app, not the build (the search page is rendered on request for every query).
const DYNAMIC = /^\/(api|go|admin|search)(\/|$)/;
const files = (await walk(dir)).filter((f) => f.endsWith('.html'));
let invalid = 0;
const broken: string[] = [];
let links = 0;
// Every server page must be linked from its category's numbered pages (static reachability).
const serverPages = new Set<string>();
const linkedFromCategories = new Set<string>();
for (const file of files) {
  const rel = relative(dir, file);
  // One file per page (build.format 'file'): server/<slug>.html, best-x-discord.html, best-x-discord/page/2.html.
  const server = /^server\/([^/]+)\.html$/.exec(rel);
  const html = await readFile(file, 'utf8');
  // A noindex server page (a dead invite, #15) is off every listing on purpose: only indexed ones must be linked.
  if (server?.[1] && !/<meta name="robots" content="noindex/.test(html)) serverPages.add(server[1]);
  // Astro puts one <style> for <astro-island> in the body of pages with islands; it is Astro's.
  const report = await validator.validateString(html.replace(/<style>astro-island[^<]*<\/style>/g, ''), file);
  if (!report.valid) {
    invalid += 1;
    for (const r of report.results) {
      for (const m of r.messages) console.log(`${relative(dir, file)}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);
    }
  }
  for (const match of html.matchAll(/\s(?:href|src|action)="([^"]*)"/g)) {
    const url = (match[1] ?? '').replace(/&amp;/g, '&');
    if (!url.startsWith('/') || url.startsWith('//')) continue;
    const pathname = url.split(/[?#]/)[0];
    if (!pathname || DYNAMIC.test(pathname)) continue;
    links += 1;
    if (!resolves(pathname)) broken.push(`${rel} -> ${url}`);
    const linked = /^\/server\/([^/]+)$/.exec(pathname);
    if (linked?.[1] && /^best-[^/]+-discord(\.html|\/page\/)/.test(rel)) linkedFromCategories.add(linked[1]);
  }
}

for (const b of broken) console.log(`broken link: ${b}`);
const unreachable = [...serverPages].filter((slug) => !linkedFromCategories.has(slug));
for (const slug of unreachable) console.log(`server page not linked from any category page: /server/${slug}`);
console.log(
  `${files.length} HTML files, ${invalid} invalid; ${links} internal links, ${broken.length} broken; ` +
    `${serverPages.size} server pages, ${unreachable.length} unreachable from category pages`,
);
// The Nu Html Checker (the W3C validator's engine, vnu-jar) over every page of the build, in one
// JVM run. It reads the HTML standard more strictly than html-validate (a style element's place,
// a required select's placeholder option). Java is part of this project's machine image.
// The JVM's quick compiler only and one garbage-collector thread: a run of a minute or less spends
// half its CPU in the optimising compiler and parallel GC otherwise (189 pages: 15 s of CPU with the
// defaults, 7 s so). The quick compiler's deeper stack needs more than the 512k the checker asks for.
const vnu = spawnSync(
  'java',
  [
    '-Xss4m',
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    '-jar',
    join(root, 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar'),
    '--errors-only',
    '--format',
    'json',
    ...files,
  ],
  { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
);
let nuErrors = 0;
if (vnu.error || (vnu.stderr.trim() === '' && vnu.status !== 0)) {
  nuErrors = 1;
  console.log(`Nu Html Checker did not run: ${vnu.error?.message ?? `exit ${vnu.status}`} (is Java installed?)`);
} else {
  const { messages = [] } = JSON.parse(vnu.stderr || '{"messages":[]}');
  for (const m of messages) {
    if (m.type !== 'error' && m.subType !== 'fatal') continue;
    nuErrors += 1;
    console.log(`nu: ${relative(dir, new URL(m.url).pathname)}:${m.lastLine ?? '?'} ${m.message}`);
  }
}
console.log(`Nu Html Checker: ${files.length} HTML files, ${nuErrors} errors`);

if (temp) rmSync(temp, { recursive: true, force: true });
if (staging) rmSync(staging, { recursive: true, force: true });
// A build without server pages means the pattern above no longer matches the build's layout.
if (serverPages.size === 0) console.log('no server pages found in the build: the reachability check saw nothing');
process.exit(
  invalid === 0 && nuErrors === 0 && broken.length === 0 && unreachable.length === 0 && serverPages.size > 0 ? 0 : 1,
);
