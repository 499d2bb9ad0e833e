// A listing's own links (#17): an owner's edit carries them as a diff through review like the other
// fields, refused when they are not https on a public host (the icon URL's rule), too many or
// mislabelled; applied on approval; operators set them in the console's server edit too.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getServerById } from '../../db/queries/servers';
import { auditLog } from '../../db/schema';
import { LINKS_MAX } from '../../src/lib/links';
import { consoleListing } from '../helpers/admin';
import { seedServer } from './api-harness';
import { createOwnerHarness, guild } from './owner-harness';

let h: Awaited<ReturnType<typeof createOwnerHarness>> | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const GUILD = '820000000000000001';
const WIKI = { label: 'Wiki', url: 'https://wiki.example.org/start' };
const SITE_LINK = { label: 'Website', url: 'https://example.org' };

/** A harness, a listing of GUILD with one link, and its owner signed in. */
async function ownedListing() {
  h = await createOwnerHarness();
  const listing = await seedServer(h.db, { guild_id: GUILD, links: [SITE_LINK] });
  const owner = await h.signInOwner([guild(GUILD, { owner: true })]);
  const edit = (body: unknown) => h!.ownerCall(owner, 'POST', `/api/account/listings/${listing.id}/edits`, body);
  return { harness: h, listing, owner, edit };
}

/** The issues of a 400, as `path: message`. */
async function issues(res: Response): Promise<string[]> {
  expect(res.status).toBe(400);
  const body = (await res.json()) as { error: { code: string; issues: { path: string; message: string }[] } };
  expect(body.error.code).toBe('validation_failed');
  return body.error.issues.map((i) => `${i.path}: ${i.message}`);
}

describe("an owner's links go through review to the listing", () => {
  it('the owner sees the links, sends new ones as a diff; approval applies them and the rebuild is asked for', async () => {
    const { harness, listing, owner, edit } = await ownedListing();
    const mine = (await (await harness.ownerCall(owner, 'GET', '/api/account/listings')).json()) as {
      listings: { links: unknown }[];
    };
    expect(mine.listings[0]!.links).toEqual([SITE_LINK]);

    const sent = await edit({ links: [SITE_LINK, { label: ' Wiki ', url: ' https://wiki.example.org/start ' }] });
    expect(sent.status).toBe(201);
    const { edit: stored } = (await sent.json()) as { edit: { id: number; changes: Record<string, unknown> } };
    expect(stored.changes).toEqual({ links: { from: [SITE_LINK], to: [SITE_LINK, WIKI] } });
    expect((await getServerById(harness.db, listing.id))!.links).toEqual([SITE_LINK]);

    // The console's queue lists it with the other owner edits.
    const mod = await harness.signIn('moderator');
    const queue = (await (await harness.call(mod, 'GET', '/api/admin/edits?status=pending')).json()) as {
      edits: { id: number; changes: unknown }[];
    };
    expect(queue.edits).toMatchObject([{ id: stored.id, changes: stored.changes }]);
    expect((await harness.call(mod, 'POST', `/api/admin/edits/${stored.id}/approve`, {})).status).toBe(200);
    expect((await getServerById(harness.db, listing.id))!.links).toEqual([SITE_LINK, WIKI]);
    expect(harness.rebuild.reasons).toContain(`owner edit of ${listing.slug} approved`);
    const [entry] = await harness.db.select().from(auditLog).where(eq(auditLog.entity, 'listing_edit'));
    expect(entry!.details).toMatchObject({ changes: { links: { to: [SITE_LINK, WIKI] } } });

    // The same links again change nothing; removing them all is a change.
    expect((await edit({ links: [SITE_LINK, WIKI] })).status).toBe(400);
    const cleared = (await (await edit({ links: [] })).json()) as { edit: { changes: unknown } };
    expect(cleared.edit.changes).toEqual({ links: { from: [SITE_LINK, WIKI], to: [] } });
  });

  it('a rejected edit leaves the links as they were', async () => {
    const { harness, listing, edit } = await ownedListing();
    const { edit: stored } = (await (await edit({ links: [WIKI] })).json()) as { edit: { id: number } };
    const mod = await harness.signIn('moderator');
    expect((await harness.call(mod, 'POST', `/api/admin/edits/${stored.id}/reject`, {})).status).toBe(200);
    expect((await getServerById(harness.db, listing.id))!.links).toEqual([SITE_LINK]);
  });

  it('refuses links that are not https, or point at an IP address, localhost or an internal host', async () => {
    const { edit } = await ownedListing();
    const notHttps = 'Link URL must be a full https:// address, like https://example.com.';
    const notPublic =
      'Link URL must be on a public website: IP addresses, localhost and internal hosts are not allowed';
    const cases: [string, string][] = [
      ['http://example.org', notHttps],
      ['javascript:alert(1)', notHttps],
      ['https://192.168.1.10/admin', notPublic],
      ['https://[::1]/', notPublic],
      ['https://localhost:8080/', notPublic],
      ['https://metadata.google.internal/', notPublic],
      ['https://printer.lan/', notPublic],
    ];
    for (const [url, message] of cases)
      expect(await issues(await edit({ links: [SITE_LINK, { label: 'Bad', url }] })), url).toEqual([
        `links.1.url: ${message}`,
      ]);
  });

  it(`refuses more than ${LINKS_MAX} links, and a label that is empty or longer than 40 characters`, async () => {
    const { harness, listing, edit } = await ownedListing();
    const many = Array.from({ length: LINKS_MAX + 1 }, (_, i) => ({
      label: `L${i}`,
      url: `https://l${i}.example.org`,
    }));
    expect(await issues(await edit({ links: many }))).toEqual([`links: Links: at most ${LINKS_MAX}`]);
    expect(await issues(await edit({ links: [{ label: '', url: 'https://example.org/a' }] }))).toEqual([
      'links.0.label: Link label is required.',
    ]);
    expect(await issues(await edit({ links: [{ label: 'x'.repeat(41), url: 'https://example.org/a' }] }))).toEqual([
      'links.0.label: Link label can be at most 40 characters.',
    ]);
    expect(await issues(await edit({ links: [{ label: 'Wiki', url: 'https://user:pass@example.org/a' }] }))).toEqual([
      'links.0.url: Link URL must not carry a user name or password (user:pass@).',
    ]);
    expect((await issues(await edit({ links: 'https://example.org' })))[0]).toBe('links: Links must be a list');
    expect((await getServerById(harness.db, listing.id))!.links).toEqual([SITE_LINK]);
  });
});

describe("the console's server edit", () => {
  const server = consoleListing({ name: 'Console Links', description: 'A listing the operators edit.' });

  it('sets the links, leaves them as they are when the edit sends none, and refuses an internal host', async () => {
    h = await createOwnerHarness();
    const admin = await h.signIn('admin');
    const created = (await (
      await h.call(admin, 'POST', '/api/admin/servers', { ...server, links: [WIKI] })
    ).json()) as {
      server: { id: number; links: unknown };
    };
    expect(created.server.links).toEqual([WIKI]);
    const path = `/api/admin/servers/${created.server.id}`;
    expect((await h.call(admin, 'PUT', path, { ...server, members: 600 })).status).toBe(200);
    expect((await getServerById(h.db, created.server.id))!.links).toEqual([WIKI]);
    expect((await h.call(admin, 'PUT', path, { ...server, links: [SITE_LINK] })).status).toBe(200);
    expect((await getServerById(h.db, created.server.id))!.links).toEqual([SITE_LINK]);
    expect(
      await issues(await h.call(admin, 'PUT', path, { ...server, links: [{ label: 'x', url: 'https://10.0.0.1/' }] })),
    ).toEqual([
      'links.0.url: Link URL must be on a public website: IP addresses, localhost and internal hosts are not allowed',
    ]);
  });
});
