import { z } from 'zod';
import { PLACEMENTS } from '../enums';

/** An owner's Promote: only the plan is chosen in the browser; listing, amount and currency come from the server. */
export const checkoutSchema = z.object({
  plan_id: z.number().int().positive('Pick a plan'),
});

/** An owner's refund request; the reason is optional. */
export const refundSchema = z.object({
  reason: z
    .string()
    .trim()
    .max(500, 'At most 500 characters')
    .optional()
    .transform((v) => v || undefined),
});

/** An admin's change of a plan (applies to new purchases only). */
export const planUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(80).optional(),
    term_days: z.number().int().min(1).max(366).optional(),
    price_cents: z.number().int().min(50, 'At least 50 cents (Stripe’s minimum)').max(10_000_00).optional(),
    currency: z
      .string()
      .regex(/^[a-z]{3}$/, 'A three-letter ISO currency code in lower case')
      .optional(),
    active: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'Send a field to change');

/** An admin's new plan. */
export const planCreateSchema = z.object({
  name: z.string().trim().min(1).max(80),
  placement: z.enum(PLACEMENTS),
  term_days: z.number().int().min(1).max(366),
  price_cents: z.number().int().min(50).max(10_000_00),
  currency: z.string().regex(/^[a-z]{3}$/),
});

/** An operator's free grant of a placement (audited; shown as such on the card). */
export const compSchema = z.object({
  server_id: z.number().int().positive(),
  placement: z.enum(PLACEMENTS),
  term_days: z.number().int().min(1).max(366),
  note: z.string().trim().max(500).optional(),
});

/** An admin's refund of any order. */
export const adminRefundSchema = refundSchema;
