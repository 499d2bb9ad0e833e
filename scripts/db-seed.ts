// `npm run db:seed`: migrates DATABASE_URL and writes the sample servers into it when it is empty.
import { seedIfEmpty } from '../db/seed';
import { openMigratedDatabase } from './lib/database';

const { db, close } = await openMigratedDatabase();
try {
  console.log((await seedIfEmpty(db)) ? 'Seeded the sample servers.' : 'Database already has servers; left as is.');
} finally {
  close();
}
