import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import {
  anotherOperatorExists,
  decideAppeal,
  getDecisionById,
  listPendingAppeals,
} from '../../../../db/queries/moderation';
import { getServerById } from '../../../../db/queries/servers';
import { reasonLabel } from '../../../../src/lib/moderation/reasons';
import { appealDecisionSchema } from '../../../../src/lib/schemas/admin';
import { ApiError } from '../../lib/errors';
import { type PendingPublish, preparePublish, serverPaths } from '../../lib/site-changes';
import { validationHook } from '../../lib/validate';
import { appealDecidedMail } from '../../mail/appeal-decided';
import { mailSite } from '../../mail/site';
import { type AdminEnv, requireRole } from '../../middleware/auth';
import { found, idParam } from './shared';

/** Why an operator may not decide the appeal of their own decision while another operator exists. */
const OWN_DECISION = 'You made this decision: another moderator decides its appeal.';

/**
 * The appeals queue (#32): admins and moderators. An appeal is decided by another moderator than
 * the one who made the decision, whenever there is another; the outcome is mailed.
 */
export const appealRoutes = new Hono<AdminEnv>()
  .use(requireRole('moderator'))
  .get('/', async (c) => {
    const db = c.get('deps').db;
    const me = c.get('operator').id;
    const [appeals, others] = await Promise.all([listPendingAppeals(db), anotherOperatorExists(db, me)]);
    return c.json({
      appeals: appeals.map((a) => ({
        id: a.id,
        kind: a.kind,
        server_name: a.server_name,
        submission_id: a.submission_id,
        server_id: a.server_id,
        reasons: a.reasons.map(reasonLabel),
        requirement: a.requirement,
        note: a.note,
        decided_at: a.created_at,
        appeal_text: a.appeal_text,
        appealed_at: a.appealed_at,
        decided_by_me: a.operator_id === me,
        /** Why POST would refuse this operator (409 another_moderator), so the screen disables it; else null. */
        refused: a.operator_id === me && others ? OWN_DECISION : null,
      })),
    });
  })
  .post('/:id', idParam, zValidator('json', appealDecisionSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param');
    const { outcome, note } = c.req.valid('json');
    const deps = c.get('deps');
    const operator = c.get('operator');
    const decision = found(await getDecisionById(deps.db, id), 'appeal', id);
    if (!decision.appealed_at || decision.appeal_outcome)
      throw new ApiError(409, 'not_waiting', 'This decision has no appeal waiting for a decision');
    if (decision.operator_id === operator.id && (await anotherOperatorExists(deps.db, operator.id)))
      throw new ApiError(409, 'another_moderator', OWN_DECISION);
    // A hide overturned shows the listing again: its record in the decision's batch, written only when it lifts.
    const server =
      outcome === 'overturned' && decision.kind === 'hide' && decision.server_id !== null
        ? await getServerById(deps.db, decision.server_id)
        : null;
    let change: PendingPublish | undefined;
    const decided = await decideAppeal(
      deps.db,
      decision,
      outcome,
      note ?? null,
      operator,
      (lifted) =>
        appealDecidedMail(mailSite(deps.env), {
          serverName: decision.server_name,
          kind: decision.kind,
          outcome,
          note: note ?? null,
          lifted,
        }),
      Date.now(),
      (lifts) => {
        if (!server) return [];
        const reason = `appeal showed ${server.slug} again`;
        change = preparePublish(deps.rebuild, deps.db, reason, serverPaths([server.slug]), lifts);
        return change.statements;
      },
    );
    if (!decided) throw new ApiError(409, 'not_waiting', 'This appeal was decided meanwhile');
    if (decided.lifted) await change?.requested();
    return c.json({
      appeal: {
        id: decided.decision.id,
        outcome: decided.decision.appeal_outcome,
        // Overturned and undone; false while a later decision about it stands (its id).
        lifted: decided.lifted,
        standing_decision_id: decided.standingDecisionId,
      },
    });
  });
