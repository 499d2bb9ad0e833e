// `npm run mail:send`: one pass of the mail sender now (functions/_app/jobs/mail-sender.ts): the due
// mails of DATABASE_URL's outbox through SMTP_URL (or MAIL_API_URL), with the same claims and
// back-off as `npm start`'s sender, so the two never send one mail twice.

import { countMailsByStatus } from '../db/queries/mail';
import { nodeMailFor } from '../functions/_app/clients/mail-smtp';
import { JOBS } from '../functions/_app/jobs/schedule';
import { displayUrl } from './lib/database';
import { openMailScript } from './lib/mail-env';

const { db, env, close } = await openMailScript();
const mail = nodeMailFor({ env });
try {
  if (!mail) {
    console.log(
      'No SMTP_URL or MAIL_API_URL set: nothing can be sent; the mails wait in the outbox (console: Outbox).',
    );
  } else {
    const result = await JOBS.mail.run(
      { db, env, mail, runtime: 'node', log: (line) => console.log(line) },
      Date.now(),
    );
    console.log(
      `Mail of ${displayUrl(env.DATABASE_URL)} through ${mail.transport}: sent ${result.sent}, to retry ${result.retried}, given up ${result.failed}.`,
    );
  }
  const counts = await countMailsByStatus(db);
  console.log(`Outbox: ${counts.pending} pending, ${counts.sent} sent, ${counts.failed} failed.`);
} finally {
  mail?.close?.();
  close();
}
