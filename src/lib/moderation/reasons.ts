/**
 * Why a moderator rejects a submission or hides a live listing (#32): a fixed list, one or more
 * picked per decision; "does not meet a requirement" names which (src/lib/requirements/). The
 * mails, the console and /moderation's counts read this list. Pure; runs in the browser too.
 */

import { REQUIREMENT_IDS, type RequirementId, requirementById, requirementHref } from '../requirements';

export const MODERATION_REASONS = [
  { value: 'requirement', label: 'Does not meet a requirement' },
  { value: 'misleading', label: 'Misleading description' },
  { value: 'scam_risk', label: 'Scam risk' },
  { value: 'duplicate', label: 'Duplicate listing' },
  { value: 'other', label: 'Other' },
] as const;
export type ModerationReason = (typeof MODERATION_REASONS)[number]['value'];
export const MODERATION_REASON_VALUES = MODERATION_REASONS.map((r) => r.value) as [
  ModerationReason,
  ...ModerationReason[],
];

/** A reason's label. */
export const reasonLabel = (reason: string): string =>
  MODERATION_REASONS.find((r) => r.value === reason)?.label ?? reason;

/** An appeal is this long at most. */
export const APPEAL_MAX_CHARS = 1000;

/** The reasons as the mails state them: "Does not meet a requirement: At least 50 members (https://…/requirements#members)". */
export function reasonLines(
  reasons: readonly string[],
  requirement: string | null,
  { minMembers, siteUrl }: { minMembers: number; siteUrl: string },
): string[] {
  return reasons.map((reason) => {
    if (reason === 'requirement' && requirement && (REQUIREMENT_IDS as readonly string[]).includes(requirement)) {
      const id = requirement as RequirementId;
      return `${reasonLabel(reason)}: ${requirementById(id, minMembers).title} (${siteUrl}${requirementHref(id)})`;
    }
    return reasonLabel(reason);
  });
}

/**
 * A report reason's moderation reason, for a listing hidden from a report: the report's own reason
 * is why it is hidden (spam and scams are a scam risk, misleading information is misleading).
 */
export function reasonOfReport(reportReason: string): ModerationReason {
  if (reportReason === 'spam' || reportReason === 'scam_pump_and_dump' || reportReason === 'impersonation')
    return 'scam_risk';
  if (reportReason === 'misleading_info' || reportReason === 'paid_signals_undisclosed') return 'misleading';
  return 'other';
}
