// `npm run admin:create -- --email x@example.com --password '...' [--role moderator]`:
// creates a console operator in the database of DATABASE_URL (admin by default).
import { parseArgs } from 'node:util';
import { createOperator, getOperatorByEmail } from '../db/queries/operators';
import { operatorCreateSchema } from '../src/lib/schemas/admin';
import { openMigratedDatabase } from './lib/database';

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, role: { type: 'string', default: 'admin' } },
});
const parsed = operatorCreateSchema.safeParse(values);
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`--${issue.path.join('.')}: ${issue.message}`);
  console.error(
    'Usage: npm run admin:create -- --email you@example.com --password "12+ characters" [--role moderator]',
  );
  process.exit(2);
}
const { db, close } = await openMigratedDatabase();
try {
  if (await getOperatorByEmail(db, parsed.data.email)) {
    console.error(`An operator ${parsed.data.email} already exists.`);
    process.exitCode = 1;
  } else {
    const op = await createOperator(db, parsed.data);
    console.log(`Created ${op.role} ${op.email} (id ${op.id}).`);
  }
} finally {
  close();
}
