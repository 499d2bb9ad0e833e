import { SITE_NAME } from './enums';

/** Appends the site suffix unless the title already names the site. */
export function pageTitle(title: string): string {
  return title.includes(SITE_NAME) ? title : `${title} | ${SITE_NAME}`;
}

/**
 * The site's origin as Astro has it (`site` in astro.config.mjs, from SITE_URL, which always has a
 * value): every page's canonical and structured-data URLs start here.
 */
export function siteOf(site: URL | undefined): URL {
  if (!site) throw new Error('astro.config.mjs sets no `site` (SITE_URL)');
  return site;
}

/**
 * The public path of a page. While building, Astro names pages by their file (build.format
 * 'file': `/help.html`, `/index.html`); the site serves them at `/help` and `/`.
 */
export const publicPath = (pathname: string): string => pathname.replace(/(?:\/index)?\.html$/, '') || '/';

/** Absolute URL of a path on the site. */
export const absoluteUrl = (path: string, site: URL | string): string => new URL(path, site).toString();

/** JSON-LD Organization of the site. */
export function organizationLd(site: URL | string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: SITE_NAME,
    url: absoluteUrl('/', site),
    logo: absoluteUrl('/icon-512.png', site),
  };
}

/** JSON-LD WebSite with the `/search?search=` SearchAction (the search page, which answers without JavaScript too). */
export function websiteLd(site: URL | string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: SITE_NAME,
    url: absoluteUrl('/', site),
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${absoluteUrl('/search', site)}?search={search_term_string}` },
      'query-input': 'required name=search_term_string',
    },
  };
}

/** JSON-LD ItemList of server pages (the caller passes at most LIMITS.structuredData). */
export function itemListLd(site: URL | string, name: string, items: { name: string; slug: string }[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name,
    numberOfItems: items.length,
    itemListElement: items.map((s, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: s.name,
      url: absoluteUrl(`/server/${s.slug}`, site),
    })),
  };
}

/** One breadcrumb step; the last one is the current page. */
export interface Crumb {
  name: string;
  href: string;
}

/** A page's breadcrumb trail: Home, then `steps` (the last one is the page itself). */
export const homeTrail = (...steps: Crumb[]): Crumb[] => [{ name: 'Home', href: '/' }, ...steps];

/** JSON-LD BreadcrumbList. */
export function breadcrumbLd(site: URL | string, crumbs: Crumb[]) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      item: absoluteUrl(c.href, site),
    })),
  };
}
