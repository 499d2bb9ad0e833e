import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroConfig, AstroIntegrationLogger } from 'astro';
import { afterAll, describe, expect, it } from 'vitest';
import { asksNoIndex, indexablePages, pageFile } from './indexable-pages';

const page = (robots: string, body = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title><meta name="robots" content="${robots}"></head><body>${body}</body></html>`;

describe('indexablePages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'indexable-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the robots meta of the head only', () => {
    expect(asksNoIndex(page('noindex, follow'))).toBe(true);
    expect(asksNoIndex(page('index, follow'))).toBe(false);
    // A server's description quoting the markup is body text, not the page's own meta.
    expect(
      asksNoIndex(
        page('index, follow', '&lt;meta name="robots" content="noindex"&gt; <meta name="robots" content="noindex">'),
      ),
    ).toBe(false);
  });

  it('maps a URL to the file the build wrote for it', () => {
    expect(pageFile('/out', 'https://example.com/')).toBe('/out/index.html');
    expect(pageFile('/out', 'https://example.com/server/ab-club')).toBe('/out/server/ab-club.html');
    expect(pageFile('/out', 'https://example.com/best-crypto-discord/')).toBe('/out/best-crypto-discord/index.html');
  });

  it('keeps indexable pages and pages without a file, drops noindex ones', () => {
    mkdirSync(join(dir, 'server'));
    writeFileSync(join(dir, 'server', 'alive.html'), page('index, follow'));
    writeFileSync(join(dir, 'server', 'dead.html'), page('noindex, follow'));
    const { integration, isIndexable } = indexablePages();
    const configDone = integration.hooks['astro:config:done'] as (options: {
      config: AstroConfig;
      logger: AstroIntegrationLogger;
    }) => void;
    configDone({ config: { outDir: pathToFileURL(`${dir}/`) } as AstroConfig, logger: {} as AstroIntegrationLogger });
    expect(isIndexable('https://example.com/server/alive')).toBe(true);
    expect(isIndexable('https://example.com/server/dead')).toBe(false);
    expect(isIndexable('https://example.com/rss.xml')).toBe(true);
  });
});
