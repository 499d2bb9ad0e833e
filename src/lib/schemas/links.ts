import { z } from 'zod';
import { LINK_LABEL_MAX, LINKS_MAX } from '../links';
import { hasUserInfo, isPublicHostname } from '../url-safety';
import { text } from './common';

/** An absolute https: URL without spaces or quotes; its host is checked apart (isPublicHostname). */
const httpsOnly = (v: string) => {
  try {
    const url = new URL(v);
    return url.protocol === 'https:' && !!url.hostname && !/[\s<>"']/.test(v);
  } catch {
    return false;
  }
};

/**
 * One of a listing's links (#17): a label people read and an https URL on a public host. IP
 * literals, localhost and internal names are refused by the rule of the listing's icon URL
 * (url-safety.ts): every visitor's browser would be sent there.
 */
export const listingLinkSchema = z.object({
  /** What the link is, as the server page shows it ("Website", "Wiki"). */
  label: text(LINK_LABEL_MAX, 1, 'Link label'),
  /** Where it goes: https on a public host. */
  url: z
    .string({ error: 'Link URL must be text.' })
    .trim()
    .max(2048, 'Link URL can be at most 2048 characters.')
    .refine(httpsOnly, 'Link URL must be a full https:// address, like https://example.com.')
    .refine(
      (v) => !httpsOnly(v) || isPublicHostname(new URL(v).hostname),
      'Link URL must be on a public website: IP addresses, localhost and internal hosts are not allowed',
    )
    .refine((v) => !hasUserInfo(v), 'Link URL must not carry a user name or password (user:pass@).'),
});

/** A listing's links: at most LINKS_MAX, in the order the page shows them. */
export const listingLinksSchema = z
  .array(listingLinkSchema, { error: 'Links must be a list' })
  .max(LINKS_MAX, `Links: at most ${LINKS_MAX}`);

/** The links as an owner's edit or the console sends them. */
export type ListingLinksInput = z.input<typeof listingLinksSchema>;
