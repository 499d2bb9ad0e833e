import { Hono } from 'hono';
import { submissionSchema } from '../../../src/lib/schemas/submission';
import type { AppDeps, AppEnv } from '../context';
import { formFailure } from '../lib/form-redirect';
import { admit } from '../lib/request';
import { parseWith, readBody } from '../lib/validate';
import { storeSubmission } from '../lib/writers';
import { RATE_LIMITS } from '../middleware/rate-limit';
import { secureJson } from '../middleware/security-headers';
import { verifyTurnstile } from '../middleware/turnstile';

/** `POST /api/submissions`: an owner's server, stored as pending for review. */
export const submissionRoutes = (deps: AppDeps) =>
  new Hono<AppEnv>().post('/', async (c) => {
    const admitted = admit(c, deps, { write: true, limit: RATE_LIMITS.submissions });
    if (admitted) await admitted;
    const { kind, data } = await readBody(c);
    try {
      const input = parseWith(submissionSchema, data);
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
      if (kind === 'form') return formFailure(c, '/submit-server', err);
      throw err;
    }
  });
