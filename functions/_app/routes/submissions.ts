import { Hono } from 'hono';
import { insertSubmission } from '../../../db/queries/submissions';
import { SUBMISSION_LABELS } from '../../../src/lib/schemas/labels';
import { submissionSchema } from '../../../src/lib/schemas/submission';
import type { AppDeps, AppEnv } from '../context';
import { publicForm } from '../lib/form-redirect';
import { body } from '../lib/validate';
import { RATE_LIMITS, rateLimit } from '../middleware/rate-limit';
import { turnstile } from '../middleware/turnstile';

/** `POST /api/submissions`: an owner's server, stored as pending for review. */
export const submissionRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post(
    '/',
    publicForm({ path: '/submit-server', action: '/api/submissions', labels: SUBMISSION_LABELS }),
    rateLimit(RATE_LIMITS.submissions),
    body(submissionSchema, { labels: SUBMISSION_LABELS, forms: true }),
    turnstile(deps),
    async (c) => {
      const input = c.req.valid('json');
      const submission = await insertSubmission(deps.db, {
        server_name: input.server_name,
        server_description: input.server_description,
        category: input.category,
        subcategory: input.subcategory ?? null,
        invite_link: input.invite_link,
        server_image: input.server_image,
        contact_email: input.contact_email,
        features: input.features ?? null,
        member_count: input.member_count,
        active_users: input.active_users,
        submitter_name: input.submitter_name,
        is_owner: input.is_owner,
      });
      if (c.get('body')?.kind === 'form') {
        return c.redirect(`/submit-server/received?email=${encodeURIComponent(submission.contact_email)}`, 303);
      }
      return c.json({ submission }, 201);
    },
  );
