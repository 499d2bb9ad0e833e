import { existsSync } from 'node:fs';
import { link, mkdir, readdir, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Db } from '../../db/client';
import { readListingGroups } from '../../db/queries/listing-groups';
import { getServerBySlug } from '../../db/queries/servers';
import { SITE_LISTINGS, type SiteListing } from '../../src/data/listing-page';
import type { InviteStatus } from '../../src/lib/enums';
import { hasPage, isListed, matchesSubcategory } from '../../src/lib/listing';

/**
 * Renders one page of the live build from the database with the build's own components (the
 * on-demand seam, functions/_app/on-demand.ts): `route` 'page' through the build's on-demand routes
 * (server pages, numbered listing pages), 'published' through src/pages/publish.astro (the home and
 * each listing's first page, which only the build writes otherwise). Null: no page there now.
 */
export type PublishRender = (path: string, route: 'page' | 'published') => Promise<string | null>;

export interface PublishOptions {
  /** The live build's folder (its `client/` is what is served). */
  live: string;
  /** The new build's folder, not yet existing: the live one hard-linked, then the touched pages written. */
  out: string;
  db: Db;
  /** The `/server/{slug}` paths the changes name (RebuildTrigger.request's pages). */
  pages: readonly string[];
  render: PublishRender;
  /** PRERENDER_LISTING_PAGES of the live build: how many pages of each listing are files. */
  listingPages: number;
  /** PRERENDER_SERVERS of the live build: how many server pages are files (the top ones by rank). */
  serverPages: number;
  /** The most server pages (files) one publish renders; more: PublishTooLarge, and the caller builds in full. */
  maxServerPages: number;
}

/** A change whose server pages are more files than an incremental publish takes (a full build is cheaper). */
export class PublishTooLarge extends Error {
  constructor(pages: number, max: number) {
    super(`${pages} server pages to render (an incremental publish takes at most ${max})`);
    this.name = 'PublishTooLarge';
  }
}

/** What an incremental publish did, by public path (`/`, `/servers/page/2`, `/server/x`). */
export interface PublishResult {
  /** Pages rendered and compared with the live file. */
  rendered: string[];
  /** Pages whose file was written (new or different HTML). */
  written: string[];
  /** Pages whose file was removed (a server without a page, a listing page past the new last). */
  removed: string[];
}

/** The file of a public path in a build's `client/` (`build.format: 'file'`). */
export const fileOfPath = (path: string): string => (path === '/' ? 'index.html' : `${path.slice(1)}.html`);

const SERVER_PAGE = /^\/server\/([^/]+)$/;

/**
 * Publishes a few listings' changes without a build: the live build is hard-linked into `out`
 * (no file is copied), then only the pages those changes can touch are rendered from the
 * database by the build's own components and written where their HTML differs:
 *
 * - each changed listing's own server page, when the live build has it as a file or has every
 *   server page as one (a listing rendered on request has no file; one that lost its page loses
 *   its file);
 * - every prerendered page (1..listingPages) of each listing the server is in now or was in
 *   before (found by its link in the live files): a changed card, a card that moved, a count;
 * - the home page (its counts, its list, Premium Picks).
 *
 * A page whose new HTML equals the live file keeps the hard link, so every page the change leaves
 * alone is byte-identical (it is the same file). Each write is a new file renamed over the link:
 * the live build is never modified. The caller swaps `out` in (SiteBuilder).
 */
export async function publishChanges(options: PublishOptions): Promise<PublishResult> {
  const { live, out, db, render } = options;
  const liveClient = join(live, 'client');
  const outClient = join(out, 'client');
  const result: PublishResult = { rendered: [], written: [], removed: [] };

  const slugs = [...new Set(options.pages.map((p) => SERVER_PAGE.exec(p)?.[1]).filter((s): s is string => Boolean(s)))];
  // While every server page is a file (no more than PRERENDER_SERVERS have one), a new one gets
  // its file too. Past that the build picks the top ones by rank: a page that is a file is
  // rewritten (or removed), any other stays rendered on request until the next full build.
  // (An approval names every listing whose place in its category it moved: most are not files.)
  // Counted from listing_groups (a few hundred rows), not by walking a million listings.
  const withPages = (await readListingGroups(db)).reduce(
    (n, g) => n + (hasPage({ ...g, invite_status: g.invite_status as InviteStatus }) ? g.servers : 0),
    0,
  );
  const everyPage = withPages <= options.serverPages;
  const serverFiles = slugs.filter((slug) => everyPage || existsSync(join(liveClient, fileOfPath(`/server/${slug}`))));
  if (serverFiles.length > options.maxServerPages) {
    throw new PublishTooLarge(serverFiles.length, options.maxServerPages);
  }
  await linkBuild(live, out);
  // The listings each server is in now, from its row.
  const listings = new Set<SiteListing>();
  for (const slug of slugs) {
    const row = await getServerBySlug(db, slug);
    if (row?.slug !== slug || !isListed(row)) continue;
    for (const l of listingsOf(row)) listings.add(l);
  }
  // The listings it was in: the live files of their pages link to it.
  const links = slugs.map((slug) => `/server/${slug}"`);
  await Promise.all(
    SITE_LISTINGS.filter((l) => !listings.has(l)).map(async (l) => {
      for (const path of listingPaths(l, options.listingPages)) {
        const html = await readFile(join(liveClient, fileOfPath(path)), 'utf8').catch(() => '');
        if (links.some((needle) => html.includes(needle))) {
          listings.add(l);
          return;
        }
      }
    }),
  );

  const publish = async (path: string, route: 'page' | 'published'): Promise<boolean> => {
    const html = await render(path, route);
    result.rendered.push(path);
    const file = fileOfPath(path);
    if (html === null) {
      if (existsSync(join(outClient, file))) {
        await rm(join(outClient, file));
        result.removed.push(path);
      }
      return false;
    }
    const before = await readFile(join(liveClient, file), 'utf8').catch(() => null);
    if (before !== html) {
      await replaceFile(join(outClient, file), html);
      result.written.push(path);
    }
    return true;
  };

  // One listing at a time: its outline is read once and kept for its pages (the render's generation).
  for (const l of SITE_LISTINGS.filter((x) => listings.has(x))) {
    await publish(l.path, 'published');
    let page = 2;
    for (; page <= options.listingPages; page++) {
      if (!(await publish(`${l.path}/page/${page}`, 'page'))) break;
    }
    // Past the listing's new last page: no file (publish removed the first; later ones too).
    for (page++; page <= options.listingPages; page++) {
      const path = `${l.path}/page/${page}`;
      if (!existsSync(join(outClient, fileOfPath(path)))) break;
      await rm(join(outClient, fileOfPath(path)));
      result.removed.push(path);
    }
  }
  await publish('/', 'published');
  for (const slug of serverFiles) await publish(`/server/${slug}`, 'page');
  return result;
}

/** The listings a listed server is in: every server, its category and the subcategories whose rule takes it. */
function listingsOf(row: { category: string; subcategory: string | null }): SiteListing[] {
  return SITE_LISTINGS.filter((l) => {
    if (!l.filter.category) return true;
    if (l.filter.category !== row.category) return false;
    return !l.filter.subcategory || matchesSubcategory(row.subcategory, l.filter.subcategory);
  });
}

/** The prerendered pages of a listing: its first page and /page/2.. up to `pages`. */
function listingPaths(l: SiteListing, pages: number): string[] {
  return [l.path, ...Array.from({ length: Math.max(0, pages - 1) }, (_, i) => `${l.path}/page/${i + 2}`)];
}

/** Writes `file` as a new file (a temporary name renamed over it), leaving any hard-linked copy as it was. */
async function replaceFile(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.publish-tmp`;
  await writeFile(tmp, content);
  await rename(tmp, file);
}

/**
 * A new build folder `out` made of the live one: its static files hard-linked (linkTree), its
 * server code (`server/`) a symbolic link to the folder of the build that wrote it. The server
 * imports the live build's server entry (on-demand.ts), and Node keys a module by its real path:
 * through the link the new build's entry is the module already loaded, where a copy at a new path
 * would be imported again (a module is never unloaded, so every publish would keep another copy
 * of the page code in memory). SiteBuilder's prune keeps a folder a kept build links to.
 */
export async function linkBuild(live: string, out: string): Promise<void> {
  await mkdir(out, { recursive: true });
  for (const e of await readdir(live, { withFileTypes: true })) {
    const from = join(live, e.name);
    const to = join(out, e.name);
    if (e.name === SERVER_FOLDER) await symlink(await realpath(from), to, 'dir');
    else if (e.isDirectory()) await linkTree(from, to);
    else await link(from, to);
  }
}

/** A build's server code (the on-demand pages' entry), shared by the publishes made from it. */
export const SERVER_FOLDER = 'server';

/** `to` as a tree of hard links to the files of `from` (folders created, no file copied). */
export async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  const entries = await readdir(from, { withFileTypes: true });
  const files: string[] = [];
  for (const e of entries) {
    if (e.isDirectory()) await linkTree(join(from, e.name), join(to, e.name));
    else files.push(e.name);
  }
  // A few hundred links in flight: the file count (10,000 server pages) is in one folder.
  for (let i = 0; i < files.length; i += 256) {
    await Promise.all(files.slice(i, i + 256).map((name) => link(join(from, name), join(to, name))));
  }
}
