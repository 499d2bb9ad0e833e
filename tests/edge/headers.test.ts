import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { securityHeaderSet } from '../../functions/_app/middleware/security-headers';
import { cloudflareHeaders, renderHeadersFile } from '../../src/integrations/headers';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('dist/_headers for the static host', () => {
  it('is written after the build with every security header the app sends, CSP hashes included', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'guildrank-headers-'));
    dirs.push(dir);
    const hashes = [
      'sha256-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=',
      'sha256-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb=',
    ];
    writeFileSync(join(dir, 'csp-hashes.json'), JSON.stringify(hashes));
    const hook = cloudflareHeaders().hooks['astro:build:done'] as (o: { dir: URL }) => Promise<void>;
    await hook({ dir: pathToFileURL(`${dir}/`) });
    const file = readFileSync(join(dir, '_headers'), 'utf8');
    const [first, ...rest] = file.split('\n');
    expect(first).toBe('/*');
    for (const [name, value] of Object.entries(securityHeaderSet(hashes))) {
      expect(rest).toContain(`  ${name}: ${value}`);
    }
    expect(file).toContain(`'${hashes[0]}'`);
    expect(file).toMatch(/\/_astro\/\*\n {2}Cache-Control: public, max-age=31536000, immutable/);
  });

  it('refuses to write a CSP line longer than Cloudflare reads rather than have it ignored', () => {
    const many = Array.from({ length: 60 }, (_, i) => `sha256-${String(i).padStart(43, 'x')}=`);
    expect(() => renderHeadersFile(many)).toThrow(/over 2000 characters/);
  });
});
