// The public page types the site-wide checks open (accessibility, no dead controls without JavaScript):
// one of each template, with the sample data's names, and the not-found screens.
export const PUBLIC_PAGE_TYPES = [
  '/',
  '/servers',
  '/best-trading-discord',
  '/best-trading-discord/forex-trading-discord',
  '/server/apex-legends-hub',
  '/submit-server',
  '/submit-server/received',
  '/help',
  '/contact',
  '/saved',
  '/best-nope-discord',
  '/server/nope',
  '/nope',
] as const;
