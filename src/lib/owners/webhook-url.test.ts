import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskedWebhookUrl, parseWebhookUrl, WEBHOOK_HOSTS } from './webhook-url';

const ID = '123456789012345678';
const TOKEN = 'aB3_-'.repeat(13);
/** A path segment's characters that need no percent-encoding (RFC 3986 pchar). */
const PATH_CHARS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@"];

describe('Discord webhook URLs', () => {
  it('accepts discord.com, discordapp.com and their canary and ptb forms', () => {
    for (const host of WEBHOOK_HOSTS)
      expect(parseWebhookUrl(`https://${host}/api/webhooks/${ID}/${TOKEN}`), host).toEqual({ id: ID, token: TOKEN });
  });

  it('refuses anything else: http, other hosts, ports, credentials, queries, other paths', () => {
    for (const url of [
      `http://discord.com/api/webhooks/${ID}/${TOKEN}`,
      `https://evil.com/api/webhooks/${ID}/${TOKEN}`,
      `https://discord.com.evil.com/api/webhooks/${ID}/${TOKEN}`,
      `https://discord.com:8443/api/webhooks/${ID}/${TOKEN}`,
      `https://user:pw@discord.com/api/webhooks/${ID}/${TOKEN}`,
      `https://discord.com/api/webhooks/${ID}/${TOKEN}?wait=true`,
      `https://discord.com/api/v10/webhooks/${ID}/${TOKEN}`,
      `https://discord.com/api/webhooks/abc/${TOKEN}`,
      `https://discord.com/api/webhooks/${ID}/short`,
      'not a url',
    ])
      expect(parseWebhookUrl(url), url).toBeNull();
  });

  it('property: any https URL on another host is refused', () => {
    // fc.webUrl's authority and a path of segments of the characters a path takes unencoded: the host
    // decides. (fc.webUrl itself builds its percent-encoded characters from every code point on
    // first use, about 2 s of CPU per test process.)
    const segment = fc.string({ unit: fc.constantFrom(...PATH_CHARS) });
    const httpsUrl = fc
      .tuple(fc.webAuthority(), fc.array(segment))
      .map(([authority, segments]) => `https://${authority}${segments.map((s) => `/${s}`).join('')}`);
    fc.assert(
      fc.property(httpsUrl, (url) => {
        const host = new URL(url).hostname;
        if (!(WEBHOOK_HOSTS as readonly string[]).includes(host)) expect(parseWebhookUrl(url)).toBeNull();
      }),
    );
  });

  it('property: a parsed URL gives back exactly its id and token', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...WEBHOOK_HOSTS),
        fc.stringMatching(/^\d{17,20}$/),
        fc.stringMatching(/^[A-Za-z0-9_-]{40,100}$/),
        (host, id, token) => {
          expect(parseWebhookUrl(`https://${host}/api/webhooks/${id}/${token}`)).toEqual({ id, token });
        },
      ),
    );
  });

  it('masks the token when shown back', () => {
    expect(maskedWebhookUrl(`https://discord.com/api/webhooks/${ID}/${TOKEN}`)).toBe(
      `https://discord.com/api/webhooks/${ID}/aB3_-a…`,
    );
  });
});
