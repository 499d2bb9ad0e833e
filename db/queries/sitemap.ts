import { and, asc, count, gt, lte, max } from 'drizzle-orm';
import { SUBCATEGORIES, subcategoryPath } from '../../src/lib/categories';
import { matchesSubcategory } from '../../src/lib/listing';
import type { Db } from '../client';
import { discordServers } from '../schema';
import { listingWhere } from './servers';

/** What the sitemap index is made from: listed servers per category, and the highest server id. */
export interface SitemapCounts {
  /** Listed servers (isListed) per category display name; categories without any are absent. */
  byCategory: Record<string, number>;
  /** Listed servers per subcategory page (the listing's subcategory rule), by its path; empty ones absent. */
  bySubcategory: Record<string, number>;
  /** The highest id of any server: server sitemap files cover id ranges up to it. */
  maxId: number;
}

/** The counts the sitemap index and the listing pages' sitemap are made from (one grouped read of an index). */
export async function getSitemapCounts(db: Db): Promise<SitemapCounts> {
  const [groups, [top]] = await Promise.all([
    db
      .select({ category: discordServers.category, subcategory: discordServers.subcategory, n: count() })
      .from(discordServers)
      .where(listingWhere({}))
      .groupBy(discordServers.category, discordServers.subcategory),
    db.select({ id: max(discordServers.id) }).from(discordServers),
  ]);
  const byCategory: Record<string, number> = {};
  const bySubcategory: Record<string, number> = {};
  for (const g of groups) {
    byCategory[g.category] = (byCategory[g.category] ?? 0) + Number(g.n);
    // A category has few distinct stored subcategories: each asked of every subcategory page's rule.
    for (const sub of SUBCATEGORIES) {
      if (sub.parentCategory !== g.category || !matchesSubcategory(g.subcategory, sub.key)) continue;
      const path = subcategoryPath(sub);
      bySubcategory[path] = (bySubcategory[path] ?? 0) + Number(g.n);
    }
  }
  return {
    byCategory,
    bySubcategory,
    maxId: Number(top?.id ?? 0),
  };
}

/** One server page of the sitemap: its slug and when its listing last changed (ISO). */
export interface SitemapServer {
  slug: string;
  updated_at: string;
}

/**
 * The listed servers (isListed: a dead listing's page is noindex, so it is left out) whose id is
 * in (afterId, throughId], by id: one server sitemap file, read along the primary key.
 */
export async function listSitemapServers(db: Db, afterId: number, throughId: number): Promise<SitemapServer[]> {
  return (
    db
      .select({ slug: discordServers.slug, updated_at: discordServers.updated_at })
      .from(discordServers)
      // listingWhere's primary-key form (matchesFirst): SQLite walks the id range, not the is_active index.
      .where(and(gt(discordServers.id, afterId), lte(discordServers.id, throughId), listingWhere({}, true)))
      .orderBy(asc(discordServers.id))
  );
}
