// A listing's own links (#17): the website and socials an owner shows beside the join link. Pure, so
// the edit schema (browser and server), the server page and the console share one rule.
import { isPublicHttpsUrl } from './url-safety';

/** At most this many links on a listing. */
export const LINKS_MAX = 5;
/** A link's label is at most this many characters. */
export const LINK_LABEL_MAX = 40;

/** One link of a listing: what it is called and where it goes (https, public host). */
export interface ListingLink {
  label: string;
  url: string;
}

/**
 * The host a link opens, as a visitor should read it before following it (`www.` dropped); null
 * when the URL is not a public https one, which a page then does not link at all.
 */
export function linkHost(url: string): string | null {
  if (!isPublicHttpsUrl(url)) return null;
  return new URL(url).hostname.replace(/^www\./, '');
}

/** The links a page may show: stored rows from before a rule, or hand-edited, are filtered again. */
export function safeLinks(links: readonly ListingLink[] | null | undefined): (ListingLink & { host: string })[] {
  const out: (ListingLink & { host: string })[] = [];
  for (const link of links ?? []) {
    const host = linkHost(link.url);
    if (host && link.label.trim()) out.push({ label: link.label.trim(), url: link.url, host });
    if (out.length === LINKS_MAX) break;
  }
  return out;
}
