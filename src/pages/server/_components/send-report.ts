// Sends the report dialog's form through the API client. Its own module, which server-actions.ts
// loads when the dialog first opens: most visits never report, and the page's script stays small.

import { sessionId } from '~/lib/analytics';
import { api, refusalOf } from '~/lib/api-client';
import { REPORT_REASON_VALUES } from '~/lib/enums';
import { TURNSTILE_FIELD, turnstileToken } from '~/lib/turnstile';

/** Sends the dialog's form about server `serverId`; null once stored, else what to tell the visitor. */
export async function sendReport(form: HTMLFormElement, serverId: number, failed: string): Promise<string | null> {
  const data = new FormData(form);
  // The radios are the reasons: this names the picked one's type.
  const reason = REPORT_REASON_VALUES.find((r) => r === data.get('reason'));
  if (!reason) return failed;
  const details = String(data.get('details') ?? '').trim();
  const error = await refusalOf(
    api.reports.$post({
      json: {
        server_id: serverId,
        reason,
        ...(details && { details }),
        session_id: sessionId() || undefined,
        website: String(data.get('website') ?? ''),
        [TURNSTILE_FIELD]: turnstileToken(form) || undefined,
      },
    }),
  );
  // A refused field's own message ("Details can be at most 1000 characters.") says the most.
  return error && (error.issues?.[0]?.message ?? (error.message || failed));
}
