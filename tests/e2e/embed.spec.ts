// Issue #33's "must show": the embeddable card is framed by a page of another origin in Chromium,
// while the home page (like every other page) refuses to be framed. The other origin is a tiny
// HTTP server on another loopback port (a page Playwright's router made up would have no address,
// and Chromium's local-network checks would refuse its frames to the loopback site for that alone).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';

const SLUG = 'apex-legends-hub';

/** Serves one HTML page at every path on a free loopback port; answers its origin and a close. */
async function ownerSite(html: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('the card renders inside another origin’s iframe; the home page refuses to', async ({ page, site }) => {
  const owner = await ownerSite(`<!doctype html><html><body>
    <iframe id="card" title="card" src="${site.baseURL}/embed/${SLUG}" width="320" height="220"></iframe>
    <iframe id="home" title="home" src="${site.baseURL}/" width="320" height="220"></iframe>
  </body></html>`);
  try {
    expect(owner.origin).not.toBe(new URL(site.baseURL).origin);
    const refused: string[] = [];
    page.on('console', (msg) => {
      if (/frame-ancestors/.test(msg.text())) refused.push(msg.text());
    });
    await page.goto(`${owner.origin}/readme.html`);
    const card = page.frameLocator('#card');
    await expect(card.locator('.name')).toHaveText('Apex Legends Hub');
    const join = card.getByRole('link', { name: /^Join/ });
    await expect(join).toHaveAttribute('target', '_blank');
    await expect(join).toHaveAttribute('href', new RegExp(`/go/${SLUG}\\?from=embed$`));
    // Chromium blocks the home page's frame (CSP frame-ancestors 'none') and says why.
    await expect.poll(() => refused.length).toBeGreaterThan(0);
    expect(refused.join('\n')).toContain(`${site.baseURL}/`);
    // The frame holds Chromium's error page, not the site's home page.
    await expect.poll(() => page.frames().some((f) => f.url().startsWith('chrome-error://'))).toBe(true);
    await expect(page.frameLocator('#home').getByText('Find the Best Discord Servers')).toHaveCount(0);
  } finally {
    await owner.close();
  }
});
