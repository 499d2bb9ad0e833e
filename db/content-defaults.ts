// The production defaults of the site's editable texts (site_content): the seed writes them, and
// a build falls back to them for a text the database lacks.

export interface ContentDefault {
  page: string;
  section: string;
  content_key: string;
  content_value: string;
  sort_order?: number;
}

/** Editable texts with their defaults; the site reads `site_content` and falls back to these. */
export const CONTENT_DEFAULTS: ContentDefault[] = [
  { page: 'home', section: 'hero', content_key: 'heading', content_value: 'Find the Best Discord Servers' },
  {
    page: 'home',
    section: 'hero',
    content_key: 'subheading',
    content_value:
      'Hand-reviewed gaming, crypto, trading, investing and sports betting communities, ranked by member count.',
  },
  {
    page: 'home',
    section: 'hero',
    content_key: 'search_placeholder',
    content_value: 'Search servers by name or topic…',
  },
  { page: 'home', section: 'categories', content_key: 'heading', content_value: 'Browse by Category' },
  {
    page: 'home',
    section: 'categories',
    content_key: 'subheading',
    content_value: 'Five niches, every server reviewed by a person before it is listed.',
  },
  {
    page: 'global',
    section: 'footer',
    content_key: 'tagline',
    content_value: 'The honest directory of Discord communities for gamers, traders, investors and bettors.',
  },
  {
    page: 'global',
    section: 'footer',
    content_key: 'copyright',
    content_value: 'GuildRank. Not affiliated with Discord Inc.',
  },
];
