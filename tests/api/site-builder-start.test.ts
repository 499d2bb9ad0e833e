import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
});
