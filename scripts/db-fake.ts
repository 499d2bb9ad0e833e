// `npm run db:fake -- --servers N [--seed S]`: adds N deterministic fake servers to DATABASE_URL.
import { parseArgs } from 'node:util';
import { insertFakeServers } from '../db/fake';
import { countServers } from '../db/queries/servers';
import { openMigratedDatabase } from './lib/database';

const { values } = parseArgs({
  options: { servers: { type: 'string', default: '1000' }, seed: { type: 'string', default: '42' } },
});
const count = Number.parseInt(values.servers, 10);
if (!Number.isInteger(count) || count < 1) throw new Error('--servers must be a positive whole number');
const { db, client, close } = await openMigratedDatabase();
try {
  const existing = await countServers(db);
  const ms = await insertFakeServers(client, count, Number(values.seed), existing);
  console.log(`Inserted ${count} fake servers in ${(ms / 1000).toFixed(1)} s (${existing + count} in all).`);
} finally {
  close();
}
