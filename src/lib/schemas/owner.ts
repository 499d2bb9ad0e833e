import { z } from 'zod';
import { EDIT_STATUSES } from '../enums';
import { pageQuerySchema } from './admin';
import { longText, optionalText, text } from './common';
import { listingLinksSchema } from './links';

const list = (maxItems: number, maxLen: number, label: string) =>
  z.array(text(maxLen, 1, label), { error: `${label} must be a list` }).max(maxItems, `${label}: at most ${maxItems}`);

/**
 * An owner's edit of their listing (#17): the fields an owner may change, each optional (absent:
 * unchanged). Stored as a diff for an operator's review, applied only on approval.
 */
export const listingEditSchema = z.object({
  /** The listing's description, as on its card and page. */
  description: longText(2000, 20, 'Description').optional(),
  /** Search tags, one per entry. */
  tags: list(12, 40, 'Tags').optional(),
  /** What the community offers, one per entry. */
  features: list(20, 200, 'Features').optional(),
  /** A subcategory of the listing's category; null or '' for none (checked against the category by the handler). */
  subcategory: z
    .string({ error: 'Subcategory must be text' })
    .trim()
    .max(60, 'Subcategory: at most 60 characters')
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  /** The listing's links beside its join link (website, socials): https on public hosts, at most LINKS_MAX. */
  links: listingLinksSchema.optional(),
});
/** An edit as the account page sends it, and as the handler reads it. */
export type ListingEditInput = z.input<typeof listingEditSchema>;
export type ListingEdit = z.output<typeof listingEditSchema>;

/** The fields of a listing an owner's edit may change (listingEditSchema's keys). */
export const EDITABLE_FIELDS = ['description', 'tags', 'features', 'subcategory', 'links'] as const;
/** One field an owner may edit. */
export type EditableField = (typeof EDITABLE_FIELDS)[number];

/** An owner's new invite for their listing, checked with Discord at once. */
export const replaceInviteSchema = z.object({
  invite_link: text(200, 1, 'Invite link'),
});

/** The windows of a listing's numbers, in days. */
export const NUMBER_WINDOWS = [7, 30, 90] as const;

/** Query of the console's owner-edit queue: a page, and a status (pending by default in the console). */
export const editQuerySchema = pageQuerySchema.extend({
  status: z
    .enum(EDIT_STATUSES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

/** An operator's decision on an owner's edit: notes are optional (shown to nobody but operators). */
export const editDecisionSchema = z.object({ admin_notes: optionalText(2000) });

/** An owner's Discord webhook URL (#32); its form is checked by parseWebhookUrl (src/lib/owners/webhook-url.ts). */
export const webhookSchema = z.object({
  webhook_url: text(300, 1, 'Webhook URL'),
});
