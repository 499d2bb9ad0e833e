import { existsSync } from 'node:fs';

/** Debian's Chromium (the `chromium` package): the full browser, for screenshots and Lighthouse. */
export const CHROMIUM_BROWSER_PATH = '/usr/bin/chromium';

/**
 * Debian's old headless shell (the `chromium-headless-shell` package, the same engine): what
 * Playwright runs headless by default, without the full browser's window and its WebUI renderers.
 * The same 21 page loads took 40-71 s through it and 78-85 s through the full browser on this
 * 2-core machine, so the e2e run uses it when it is installed (`npm test` installs it as root).
 */
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell';

export const CHROMIUM_PATH = existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_BROWSER_PATH;

/**
 * The flags this closed network needs. Hosts under example.com (RFC 2606), the made-up icons and
 * links of tests and sample rows, fail at once without a DNS query: whatever the machine's network
 * or resolver does, a page never waits on one.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--host-resolver-rules=MAP example.com ~NOTFOUND, MAP *.example.com ~NOTFOUND',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
