import { Hono } from 'hono';
import { readQueueFigures } from '../../../db/queries/moderation';
import { ownerAuthor } from '../../../db/queries/owners';
import { insertCheckedSubmission } from '../../../db/queries/submissions';
import { queueSentence } from '../../../src/lib/moderation/queue';
import { SUBMISSION_LABELS } from '../../../src/lib/schemas/labels';
import { submissionSchema } from '../../../src/lib/schemas/submission';
import type { AppDeps, AppEnv } from '../context';
import { publicForm } from '../lib/form-redirect';
import { alreadyThere, checkInvite } from '../lib/invite-check';
import { currentOwner, guildProof } from '../lib/owner-session';
import { RATE_LIMITS } from '../lib/rate-limits';
import { body } from '../lib/validate';
import { mailSite } from '../mail/site';
import { submissionReceivedMail } from '../mail/submission-received';
import { rateLimit } from '../middleware/rate-limit';
import { turnstile } from '../middleware/turnstile';

/**
 * `POST /api/submissions`: an owner's server, stored as pending for review once Discord has
 * vouched for its invite (lib/invite-check.ts: 400 on the invite field, 409 for a guild listed or
 * pending, 503 when Discord cannot be asked). Discord's guild id, icon hash and approximate
 * member and online counts are stored with it; the owner types no counts.
 */
export const submissionRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post(
    '/',
    publicForm({ path: '/submit-server', action: '/api/submissions', labels: SUBMISSION_LABELS }),
    rateLimit(RATE_LIMITS.submissions),
    body(submissionSchema, { labels: SUBMISSION_LABELS, forms: true }),
    turnstile(deps),
    async (c) => {
      const input = c.req.valid('json');
      // A signed-in owner's submission (#17) carries the proof their Discord guild list gave at this
      // session's sign-in (kept with the session), and when that was; their check may use the reserve.
      const owner = await currentOwner(c, deps);
      const { invite } = await checkInvite(deps, input.invite_link, {
        form: true,
        client: c.get('ipHash'),
        owner: owner !== null,
        category: input.category,
      });
      const proof = owner ? guildProof(owner, invite.guildId) : null;
      // The queue this submission joins, for the "received" mail (#32): it waits too.
      const figures = await readQueueFigures(deps.db, deps.now?.() ?? Date.now());
      const queue = queueSentence({ ...figures, waiting: figures.waiting + 1 });
      const stored = await insertCheckedSubmission(
        deps.db,
        {
          server_name: input.server_name,
          server_description: input.server_description,
          category: input.category,
          subcategory: input.subcategory,
          language: input.language,
          region: input.region,
          invite_link: input.invite_link,
          server_image: input.server_image,
          contact_email: input.contact_email,
          features: input.features,
          member_count: invite.memberCount ?? 0,
          active_users: invite.onlineCount ?? 0,
          submitter_name: input.submitter_name,
          is_owner: input.is_owner,
          guild_id: invite.guildId,
          guild_icon: invite.icon,
          invite_code: invite.code,
          owner_id: owner?.owner.id ?? null,
          owner_verified: proof !== null,
          owner_proof: proof,
          owner_proven_at: proof ? owner!.signedInAt : null,
        },
        // The "received" mail to the contact address, written with the submission (#16).
        {
          mail: submissionReceivedMail(mailSite(deps.env), {
            serverName: input.server_name,
            submitterName: input.submitter_name,
            queue,
          }),
        },
        // Who sent it, with which proof (#17): the audit log's record of an owner's submission, in its batch.
        owner
          ? {
              author: ownerAuthor(owner.owner),
              details: { owner_id: owner.owner.id, guild_id: invite.guildId, proof },
            }
          : undefined,
      );
      // Submitted by someone else since the check: the guild is there now.
      if (!stored.ok) throw alreadyThere(stored.taken);
      const { submission } = stored;
      if (c.get('body')?.kind === 'form') {
        return c.redirect(`/submit-server/received?email=${encodeURIComponent(submission.contact_email)}`, 303);
      }
      return c.json({ submission }, 201);
    },
  );
