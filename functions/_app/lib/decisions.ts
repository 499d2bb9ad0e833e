import type { BatchItem } from 'drizzle-orm/batch';
import { getListingContact } from '../../../db/queries/freshness';
import { type DecisionInput, hideListing } from '../../../db/queries/moderation';
import { notifyOwner } from '../../../db/queries/webhooks';
import { reasonLines } from '../../../src/lib/moderation/reasons';
import type { AppDeps } from '../context';
import { listingHiddenMail } from '../mail/listing-hidden';
import { mailSite } from '../mail/site';
import { appealUrl, newAppealKey } from './appeal-link';
import { type PendingPublish, preparePublish, serverPaths } from './site-changes';

/** What a moderator sent with a rejection or a hide (#32). */
export interface DecisionBody {
  reasons?: string[] | undefined;
  requirement?: string | undefined;
  note?: string | undefined;
}

/**
 * A decision ready for the query layer and its mail: a fresh appeal key, the reasons as the mail
 * states them (a requirement with its link) and the signed appeal link.
 */
export async function prepareDecision(
  deps: AppDeps,
  operator: { id: number; email: string },
  body: DecisionBody,
): Promise<{ input: DecisionInput; reasonLines: string[]; appealUrl: string }> {
  const key = newAppealKey();
  const reasons = body.reasons ?? ['other'];
  const requirement = reasons.includes('requirement') ? (body.requirement ?? null) : null;
  return {
    input: { reasons, requirement, note: body.note ?? null, operator, appealKey: key },
    reasonLines: reasonLines(reasons, requirement, { minMembers: deps.env.MIN_MEMBERS, siteUrl: deps.env.SITE_URL }),
    appealUrl: await appealUrl(deps.env.SITE_URL, deps.env.SESSION_SECRET, key),
  };
}

/**
 * Hides a live listing with reasons (#32): the decision, audit row and the mail to the listing's
 * contact address (the submission it was approved from) with the appeal link, in one batch. The
 * decision, or null when the listing was not live. `more` joins that batch whether or not it hid
 * the listing (a report's own status and audit row). The record of the change for the public pages
 * (`reason`, the listing's page) is in the batch too, written only when it hid the listing; the
 * rebuild is asked for once it is stored.
 */
export async function hideWithReasons(
  deps: AppDeps,
  operator: { id: number; email: string },
  server: { id: number; name: string; slug: string },
  body: DecisionBody,
  details: Record<string, unknown> = {},
  more: BatchItem<'sqlite'>[] = [],
  reason = `hid ${server.slug}`,
) {
  const decision = await prepareDecision(deps, operator, body);
  const contact = await getListingContact(deps.db, server.id);
  let change: PendingPublish | undefined;
  const hidden = await hideListing(
    deps.db,
    server,
    decision.input,
    contact?.contactEmail
      ? {
          email: contact.contactEmail,
          mail: listingHiddenMail(mailSite(deps.env), {
            serverName: server.name,
            reasons: decision.reasonLines,
            note: body.note ?? null,
            appealUrl: decision.appealUrl,
          }),
        }
      : null,
    details,
    // Every owner who claimed it: the notice on their Discord webhook, in the same batch.
    (when) => {
      change = preparePublish(deps.rebuild, deps.db, reason, serverPaths([server.slug]), when);
      return [
        notifyOwner(
          deps.db,
          { serverId: server.id },
          { kind: 'hidden', serverName: server.name, reasons: decision.reasonLines },
          `hidden:${decision.input.appealKey}`,
          when,
        ),
        ...change.statements,
        ...more,
      ];
    },
  );
  if (hidden) await change?.requested();
  return hidden;
}
