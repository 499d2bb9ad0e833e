import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SiteBuilder } from '../../functions/_app/site-builder';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('SiteBuilder start-up', () => {
  it('refuses a builds folder outside the project, whose builds could not find their packages', () => {
    const root = join(tmpdir(), 'guildrank-project');
    for (const buildsDir of [join(tmpdir(), 'guildrank-builds'), join(root, '..', 'builds'), tmpdir()]) {
      expect(() => new SiteBuilder({ root, buildsDir, env: {} })).toThrow(/outside the project/);
    }
    for (const buildsDir of [root, join(root, '.builds'), join(root, '.tmp', '..builds')]) {
      expect(() => new SiteBuilder({ root, buildsDir, env: {} })).not.toThrow();
    }
  });

  it('removes the .tmp folders a build killed midway left, and keeps serving the live build', async () => {
    dir = mkdtempSync(join(tmpdir(), 'guildrank-builds-'));
    mkdirSync(join(dir, 'build-100', 'client'), { recursive: true });
    mkdirSync(join(dir, 'build-100', 'server'));
    writeFileSync(join(dir, 'build-100', 'client', 'index.html'), '<h1>Live</h1>');
    writeFileSync(join(dir, 'build-100', 'server', 'entry.mjs'), 'export {};');
    writeFileSync(join(dir, 'current'), 'build-100');
    // What a process killed during `astro build`, or between writing and renaming the pointer, leaves.
    mkdirSync(join(dir, 'build-200.tmp', '_astro'), { recursive: true });
    writeFileSync(join(dir, 'build-200.tmp', '_astro', 'page.js'), 'half written');
    writeFileSync(join(dir, 'current.tmp'), 'build-200');
    mkdirSync(join(dir, '.astro-cache'));

    const builder = new SiteBuilder({ root: dir, buildsDir: dir, env: {} });
    await builder.init();

    expect(readdirSync(dir).sort()).toEqual(['.astro-cache', 'build-100', 'current']);
    expect(builder.liveDir()).toBe(join(dir, 'build-100', 'client'));
    expect(builder.serverEntry()).toBe(join(dir, 'build-100', 'server', 'entry.mjs'));
    expect(existsSync(join(dir, 'build-200.tmp'))).toBe(false);
  });

  it('stops a running build when it closes: the process is killed, its folder removed, the live build kept', async () => {
    dir = mkdtempSync(join(tmpdir(), 'guildrank-builds-'));
    const root = join(dir, 'project');
    const builds = join(root, '.builds');
    // An `astro build` that writes its output folder and then takes far longer than this test.
    mkdirSync(join(root, 'node_modules', 'astro', 'bin'), { recursive: true });
    writeFileSync(
      join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'),
      [
        "import { mkdirSync, writeFileSync } from 'node:fs';",
        "const out = process.argv[process.argv.indexOf('--outDir') + 1];",
        "mkdirSync(out + '/client', { recursive: true });",
        "writeFileSync(out + '/pid', String(process.pid));",
        'setTimeout(() => {}, 600_000);',
      ].join('\n'),
    );
    mkdirSync(join(builds, 'build-100', 'client'), { recursive: true });
    mkdirSync(join(builds, 'build-100', 'server'));
    writeFileSync(join(builds, 'build-100', 'client', 'index.html'), '<h1>Live</h1>');
    writeFileSync(join(builds, 'build-100', 'server', 'entry.mjs'), 'export {};');
    writeFileSync(join(builds, 'current'), 'build-100');
    const builder = new SiteBuilder({ root, buildsDir: builds, env: { PATH: process.env.PATH }, debounceMs: 0 });
    await builder.init();

    builder.request('an approval');
    // The build's pid once its file holds it: the file exists a moment before its bytes do, and an
    // empty read would be pid 0, which `process.kill` takes for this process group.
    const startedPid = () => {
      const tmp = readdirSync(builds).find((n) => n.endsWith('.tmp') && existsSync(join(builds, n, 'pid')));
      return tmp ? Number(readFileSync(join(builds, tmp, 'pid'), 'utf8')) : 0;
    };
    let pid = startedPid();
    while (!(pid > 0)) {
      await new Promise((ok) => setTimeout(ok, 20));
      pid = startedPid();
    }

    await builder.close();
    expect(readdirSync(builds).sort()).toEqual(['build-100', 'current']);
    expect(builder.liveDir()).toBe(join(builds, 'build-100', 'client'));
    expect(() => process.kill(pid, 0)).toThrow();
    // Closed: a later change asks for nothing.
    builder.request('after close');
    await builder.idle();
    expect(readdirSync(builds).sort()).toEqual(['build-100', 'current']);
  });
});
