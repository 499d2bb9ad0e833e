import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { z } from 'zod';
import { auditStatement, INSERTED_ID } from '../../../../db/queries/audit';
import {
  createCompOrder,
  createPlan,
  getOrder,
  getPlan,
  listOrdersForConsole,
  listPlans,
  revenueByDay,
  updatePlan,
} from '../../../../db/queries/orders';
import { getServerById } from '../../../../db/queries/servers';
import { REVENUE_DAYS } from '../../../../src/lib/pricing/plans';
import { adminRefundSchema, compSchema, planCreateSchema, planUpdateSchema } from '../../../../src/lib/schemas/orders';
import { ApiError } from '../../lib/errors';
import { applyEvent, refundThroughStripe } from '../../lib/order-events';
import { validationHook } from '../../lib/validate';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { auditOf, found, idParam, prepareRebuild } from './shared';

const pageQuery = zValidator(
  'query',
  z.object({
    page: z.coerce.number().int().min(1).default(1),
    per_page: z.coerce.number().int().min(1).max(200).default(50),
  }),
  validationHook,
);

/** Paid placement in the console (#30), admins only: orders, refunds, plans, comps and revenue. */
export const orderRoutes = new Hono<AdminEnv>()
  .use(requireRole('admin'))
  // Every order with its state, Stripe ids and the events it received.
  .get('/', pageQuery, async (c) => {
    const { page, per_page: perPage } = c.req.valid('query');
    const list = await listOrdersForConsole(c.get('deps').db, { limit: perPage, offset: (page - 1) * perPage });
    return c.json({ ...list, page, perPage });
  })
  // Money in minus refunds per UTC day (the last REVENUE_DAYS days).
  .get('/revenue', async (c) => {
    const deps = c.get('deps');
    return c.json({ days: await revenueByDay(deps.db, REVENUE_DAYS, deps.now?.() ?? Date.now()) });
  })
  // An admin's refund of any paid, ended or disputed order, through Stripe at once.
  .post('/:id/refund', idParam, zValidator('json', adminRefundSchema, validationHook), async (c) => {
    const deps = c.get('deps');
    const { id } = c.req.valid('param');
    const order = found(await getOrder(deps.db, id), 'order', id);
    if (
      order.kind !== 'checkout' ||
      !order.stripe_payment_intent ||
      !['paid', 'ended', 'disputed'].includes(order.state)
    )
      throw new ApiError(409, 'not_refundable', 'Only a paid order can be refunded');
    const reason = c.req.valid('json').reason ?? null;
    const { outcome } = await refundThroughStripe(
      deps,
      { ...order, stripe_payment_intent: order.stripe_payment_intent },
      reason,
      deps.now?.() ?? Date.now(),
      // The audit row in the refund's own batch: recorded together or not at all.
      (refund, applied) =>
        auditStatement(
          deps.db,
          auditOf(c, 'refund', 'order', id, { refund: refund.id, amount_cents: refund.amount, reason }),
          applied,
        ),
    );
    return c.json({ order: outcome.kind === 'applied' ? outcome.order : await getOrder(deps.db, id) });
  })
  // A comp: an operator's free grant of a placement (audited, shown as such on the card).
  .post('/comps', zValidator('json', compSchema, validationHook), async (c) => {
    const deps = c.get('deps');
    const input = c.req.valid('json');
    const listing = found(await getServerById(deps.db, input.server_id), 'server', input.server_id);
    if (!listing.affiliate_link)
      throw new ApiError(400, 'validation_failed', 'Premium and sponsored listings need a join link', [
        { path: 'server_id', message: 'This listing has no join link' },
      ]);
    const operator = c.get('operator');
    // Recorded with the comp order (its 'paid' event's batch records the placement it starts too).
    const change = prepareRebuild(c, `comp placement for ${listing.slug}`, [listing.slug]);
    const comp = await createCompOrder(
      deps.db,
      {
        serverId: listing.id,
        category: listing.category,
        placement: input.placement,
        termDays: input.term_days,
        grantedBy: operator.email,
      },
      auditOf(
        c,
        'comp',
        'order',
        INSERTED_ID,
        {
          server_id: listing.id,
          placement: input.placement,
          term_days: input.term_days,
          note: input.note ?? null,
        },
        change,
      ),
    );
    const outcome = await applyEvent(deps, {
      eventId: `comp:${comp.id}`,
      type: 'app.comp',
      orderId: comp.id,
      event: 'paid',
      at: deps.now?.() ?? Date.now(),
    });
    await change.requested();
    return c.json({ order: outcome.kind === 'applied' ? outcome.order : comp }, 201);
  })
  .get('/plans', async (c) => c.json({ plans: await listPlans(c.get('deps').db) }))
  .post('/plans', zValidator('json', planCreateSchema, validationHook), async (c) => {
    const input = c.req.valid('json');
    const change = prepareRebuild(c, `plan ${input.name} created (pricing page)`);
    const plan = await createPlan(
      c.get('deps').db,
      input,
      auditOf(c, 'create', 'plan', INSERTED_ID, { ...input }, change),
    );
    await change.requested();
    return c.json({ plan }, 201);
  })
  // A plan's change applies to new purchases only: orders keep the price and term they were sold at.
  .patch('/plans/:id', idParam, zValidator('json', planUpdateSchema, validationHook), async (c) => {
    const db = c.get('deps').db;
    const { id } = c.req.valid('param');
    const before = found(await getPlan(db, id), 'plan', id);
    const changes = c.req.valid('json');
    const change = prepareRebuild(c, `plan ${changes.name ?? before.name} changed (pricing page)`);
    const plan = found(
      await updatePlan(db, id, changes, auditOf(c, 'update', 'plan', id, { before, changes }, change)),
      'plan',
      id,
    );
    await change.requested();
    return c.json({ plan });
  });
