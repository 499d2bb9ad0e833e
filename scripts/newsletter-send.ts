// `npm run newsletter:send`: composes this ISO week's issue of the newsletter (premium and sponsored
// picks, the week's fastest-growing listings) on DATABASE_URL and writes one copy per confirmed,
// active subscriber to the outbox (functions/_app/jobs/newsletter.ts), then delivers the outbox
// once through SMTP_URL (or MAIL_API_URL) when one is set; without one the copies wait in the
// outbox for `npm start`'s sender. A second run in the same week writes and sends nothing new.

import { nodeMailFor } from '../functions/_app/clients/mail-smtp';
import { run as sendMail } from '../functions/_app/jobs/mail-sender';
import { run as sendNewsletter } from '../functions/_app/jobs/newsletter';
import { isoWeek } from '../functions/_app/mail/week';
import { displayUrl } from './lib/database';
import { openMailScript } from './lib/mail-env';

const { db, env, close } = await openMailScript();
const mail = nodeMailFor({ env });
try {
  const log = (line: string) => console.log(line);
  const now = Date.now();
  // Composes the week's issue whatever the day (the scheduled passes only from Monday 09:00).
  const result = await sendNewsletter({ db, env }, now, { log });
  console.log(
    `Newsletter ${result.week} on ${displayUrl(env.DATABASE_URL)}: ${result.enqueued} new cop${result.enqueued === 1 ? 'y' : 'ies'}, ${result.recipients} recipient(s) in all.`,
  );
  if (result.week !== isoWeek(now))
    console.log(`That was the rest of last week's issue; run again to compose ${isoWeek(now)}'s.`);
  if (!mail) {
    console.log(
      'No SMTP_URL or MAIL_API_URL: the copies wait in the outbox (npm start sends them once one is set; console: Outbox).',
    );
  } else if (result.enqueued > 0) {
    // Deliver now, in passes, until nothing of this run is left due (failures wait their back-off).
    for (;;) {
      const pass = await sendMail({ db, env, mail }, Date.now(), { log });
      if (pass.claimed === 0 || pass.sent === 0) {
        console.log(
          pass.claimed === 0 ? 'Outbox delivered.' : 'The mail server refused or is down: the rest are retried later.',
        );
        break;
      }
      console.log(`Sent ${pass.sent} (${pass.retried} to retry, ${pass.failed} given up).`);
    }
  }
} finally {
  mail?.close?.();
  close();
}
