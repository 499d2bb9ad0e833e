import { z } from 'zod';
import {
  APPEAL_OUTCOMES,
  CONTACT_STATUSES,
  NEWSLETTER_STATUSES,
  OPERATOR_ROLES,
  REPORT_ACTIONS,
  SUBMISSION_REVIEW_STATUSES,
  SUBMISSION_STATUSES,
} from '../enums';
import { MODERATION_REASON_VALUES } from '../moderation/reasons';
import { REQUIREMENT_IDS } from '../requirements';
import { email, optionalText, searchText } from './common';
import { reviewedLanguage, reviewedRegion } from './language';

export type { OperatorRole } from '../enums';

/** The console's sign-in form. */
export const loginSchema = z.object({
  email,
  password: z.string({ error: 'Required' }).min(1, 'Required').max(1024, 'At most 1024 characters'),
});
export type LoginInput = z.output<typeof loginSchema>;

/** Page and page size of a console list. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(200).default(25),
});

/** Query of the submissions queue. */
export const submissionQuerySchema = pageQuerySchema.extend({
  status: z
    .enum(SUBMISSION_STATUSES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** The queue's order (#32): oldest first by default, so whoever waited longest is reviewed first. */
  sort: z.enum(['oldest', 'newest']).default('oldest'),
});

/**
 * Why a moderator rejects or hides (#32): one or more reasons of the fixed list, the requirement a
 * "does not meet a requirement" reason names, and an optional note (the mail quotes it).
 */
const decisionFields = {
  reasons: z
    .array(z.enum(MODERATION_REASON_VALUES, { error: 'Pick reasons from the list' }))
    .min(1, 'Pick at least one reason')
    .max(MODERATION_REASON_VALUES.length)
    .transform((r) => [...new Set(r)])
    .optional(),
  requirement: z.enum(REQUIREMENT_IDS, { error: 'Pick a requirement from the list' }).optional(),
};

/** The rule every decision with reasons keeps: "does not meet a requirement" names which one. */
const requirementNamed = <T extends { reasons?: string[] | undefined; requirement?: string | undefined }>(
  v: T,
  ctx: z.RefinementCtx,
) => {
  if (v.reasons?.includes('requirement') && !v.requirement)
    ctx.addIssue({ code: 'custom', path: ['requirement'], message: 'Name the requirement that is not met' });
};

/** Moving a submission to under_review or rejected (approval has its own action), with notes; a rejection needs reasons (#32). */
export const submissionStatusSchema = z
  .object({
    status: z.enum(SUBMISSION_REVIEW_STATUSES, {
      error: `Choose ${SUBMISSION_REVIEW_STATUSES.slice(0, -1).join(', ')} or ${SUBMISSION_REVIEW_STATUSES.at(-1)}`,
    }),
    admin_notes: optionalText(2000),
    ...decisionFields,
  })
  .superRefine((v, ctx) => {
    if (v.status === 'rejected' && !v.reasons?.length)
      ctx.addIssue({ code: 'custom', path: ['reasons'], message: 'A rejection needs at least one reason' });
    requirementNamed(v, ctx);
  });

/** An appeal's decision in the console (#32): the decision stands or is undone, with an optional note mailed with it. */
export const appealDecisionSchema = z.object({
  outcome: z.enum(APPEAL_OUTCOMES, { error: 'Choose upheld or overturned' }),
  note: optionalText(2000),
});

/**
 * Approving a submission, optionally with notes and the reviewer's subcategory (a name of the
 * submission's category, checked by the route; null or '' for none; absent keeps the owner's).
 */
export const approveSchema = z.object({
  admin_notes: optionalText(2000),
  subcategory: z
    .string({ error: 'Must be text' })
    .trim()
    .max(60, 'At most 60 characters')
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  /** The reviewer's language and region (#19): a code, null or '' for none, absent keeps the owner's. */
  language: reviewedLanguage,
  region: reviewedRegion,
});

/** Query of the servers screen. */
export const adminServerQuerySchema = pageQuerySchema.extend({
  search: searchText(100),
});

/** Query of the Reviews screen (#31): which reviews, paged like every console list. */
export const reviewQuerySchema = pageQuerySchema.extend({
  view: z.enum(['held', 'flagged', 'hidden']).default('flagged'),
});

/** Showing or hiding a listing. */
export const visibilitySchema = z
  .object({ is_active: z.boolean(), ...decisionFields, note: optionalText(2000) })
  .superRefine((v, ctx) => {
    // Hiding a live listing needs a reason (#32): the owner is told why and may appeal.
    if (!v.is_active && !v.reasons?.length)
      ctx.addIssue({ code: 'custom', path: ['reasons'], message: 'Hiding a listing needs at least one reason' });
    requirementNamed(v, ctx);
  });

/** Premium, sponsored and sort-order marking of a listing. */
export const placementSchema = z
  .object({
    is_premium: z.boolean().optional(),
    is_sponsored: z.boolean().optional(),
    sort_order: z.coerce.number().int().min(-1_000_000).max(1_000_000).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'Send is_premium, is_sponsored or sort_order');

/** Window of the per-server analytics. */
export const analyticsQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });

const contentKey = z
  .string()
  .trim()
  .min(1, 'Required')
  .max(60, 'At most 60 characters')
  .regex(/^[a-z0-9_-]+$/i, 'Letters, digits, - and _');

/** A site_content row as operators write it. */
export const contentSchema = z.object({
  page: contentKey,
  section: contentKey,
  content_key: contentKey,
  content_value: z.string().max(10_000, 'At most 10000 characters').default(''),
  sort_order: z.coerce.number().int().min(-1_000_000).max(1_000_000).default(0),
  is_active: z.boolean().default(true),
});
export type ContentInput = z.input<typeof contentSchema>;

/** Query of the subscribers screen. */
export const subscriberQuerySchema = pageQuerySchema.extend({
  search: searchText(254),
  status: z
    .enum(NEWSLETTER_STATUSES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

/**
 * Status or premium change of a subscriber. An operator can unsubscribe an address but never
 * confirm one for its owner: making a subscriber active again is the confirmation mail's job
 * (POST /api/admin/newsletter/:id/resend).
 */
export const subscriberPatchSchema = z
  .object({
    status: z
      .literal('unsubscribed', {
        error: 'Only unsubscribed can be set here: a subscriber confirms their own address (send a confirmation)',
      })
      .optional(),
    premium_subscriber: z.boolean().optional(),
  })
  .refine((v) => v.status !== undefined || v.premium_subscriber !== undefined, 'Send status or premium_subscriber');

/** Status change of a contact message. */
export const contactStatusSchema = z.object({ status: z.enum(CONTACT_STATUSES) });

/** Query of the contact inbox. */
export const contactQuerySchema = pageQuerySchema.extend({
  status: z
    .enum(CONTACT_STATUSES)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

/** What an operator does with a report: resolve it, dismiss it, or hide its server (resolving it). */
export const reportActionSchema = z
  .object({ action: z.enum(REPORT_ACTIONS), ...decisionFields, note: optionalText(2000) })
  .superRefine(requirementNamed);

/** Creating an operator from the console (admins only). */
export const operatorCreateSchema = z.object({
  email,
  password: z.string().min(12, 'At least 12 characters').max(1024),
  role: z.enum(OPERATOR_ROLES).default('moderator'),
});
