import { Hono } from 'hono';
import { SUBMISSION_LABELS } from '../../../src/lib/schemas/labels';
import { submissionSchema } from '../../../src/lib/schemas/submission';
import type { AppDeps, AppEnv } from '../context';
import { formFailure, type PublicForm } from '../lib/form-redirect';
import { admit } from '../lib/request';
import { parseWith, readBody } from '../lib/validate';
import { storeSubmission } from '../lib/writers';
import { RATE_LIMITS } from '../middleware/rate-limit';
import { secureJson } from '../middleware/security-headers';
import { verifyTurnstile } from '../middleware/turnstile';

/** The submit form, for the answer to a refused post without JavaScript. */
const SUBMIT_FORM: PublicForm = { path: '/submit-server', action: '/api/submissions', labels: SUBMISSION_LABELS };

/** `POST /api/submissions`: an owner's server, stored as pending for review. */
export const submissionRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post('/', async (c) => {
    let body: Awaited<ReturnType<typeof readBody>> | undefined;
    try {
      const admitted = admit(c, deps, { write: true, limit: RATE_LIMITS.submissions });
      if (admitted) await admitted;
      body = await readBody(c);
      const { kind, data } = body;
      const input = parseWith(submissionSchema, data, SUBMISSION_LABELS);
      await verifyTurnstile(c, data);
      const submission = await storeSubmission(deps, {
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
      if (kind === 'form') {
        return c.redirect(`/submit-server/received?email=${encodeURIComponent(submission.contact_email)}`, 303);
      }
      return secureJson({ submission }, 201);
    } catch (err) {
      return formFailure(c, SUBMIT_FORM, err, body);
    }
  });
