import type { CategoryName } from './categories';

/** A short notice shown on a niche's category, subcategory and server pages. */
export interface NicheNotice {
  /** Heading of the notice box. */
  title: string;
  /** The notice itself: under ~240 characters (design note B5 gives the sources). */
  text: string;
  /** Help to link to, when the niche has some. */
  help?: readonly { label: string; href: string }[];
}

const SCAMS = 'Watch for pump-and-dump calls, paid signals, impersonated staff and DMs asking for keys.';

/**
 * The notices by category. Crypto, Trading and Investing: not financial advice and the scam
 * patterns to watch for (SEC's Discord pump-and-dump case, FCA FG24/1, FTC crypto-scam data);
 * Sports Betting: the age limits (18+, 21+ in most US states by the AGA code) and
 * responsible-gambling help. Gaming has none.
 */
export const NICHE_NOTICES: Partial<Record<CategoryName, NicheNotice>> = {
  Crypto: {
    title: 'Not financial advice',
    text: `Crypto is high-risk: you can lose all your money. ${SCAMS} Never share a seed phrase or connect a wallet to "verify".`,
  },
  Trading: {
    title: 'Not financial advice',
    text: `Signals and calls are not personal advice, and people promoting a stock may be selling it to you. ${SCAMS}`,
  },
  Investing: {
    title: 'Not financial advice',
    text: `Be wary of guaranteed returns and "act now" pressure; check who is licensed before paying. ${SCAMS}`,
  },
  'Sports Betting': {
    title: '18+ only (21+ in most US states)',
    text: 'Gambling can be addictive and no bet is risk-free. If it stops being fun, get help: 1-800-GAMBLER in the US, BeGambleAware in the UK.',
    help: [
      // Non-breaking hyphens and space: a phone number never wraps across lines.
      { label: '1\u2011800\u2011GAMBLER\u00a0(US)', href: 'tel:+18004262537' },
      { label: 'BeGambleAware (UK)', href: 'https://www.begambleaware.org/' },
    ],
  },
};

/** The notice of a category (by display name), if its niche has one. */
export const nicheNotice = (category: string): NicheNotice | undefined => NICHE_NOTICES[category as CategoryName];
