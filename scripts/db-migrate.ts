// `npm run db:migrate`: applies pending migrations to DATABASE_URL (default file:db/local.db).
import { displayUrl, openMigratedDatabase } from './lib/database';

const { env, close } = await openMigratedDatabase();
close();
console.log(`Migrated ${displayUrl(env.DATABASE_URL)}`);
