import type { InValue } from '@libsql/client';
import { getTableColumns } from 'drizzle-orm';
import type { Db } from '../client';
import { preparedStatementsFor } from '../prepared';
import { discordServers, type ServerRow } from '../schema';

/** A drizzle select of columns of discord_servers: its SQL, and itself as the fallback read. */
export interface ServerSelect<T = ServerRow> extends PromiseLike<T[]> {
  toSQL(): { sql: string; params: unknown[] };
}

const TABLE_COLUMNS = getTableColumns(discordServers);

/** Columns of discord_servers by their keys, for a select that keeps their names: `.select({ ...serverColumns(['id', 'name']) })`. */
export function serverColumns<K extends keyof typeof TABLE_COLUMNS>(keys: readonly K[]): Pick<typeof TABLE_COLUMNS, K> {
  return Object.fromEntries(keys.map((k) => [k, TABLE_COLUMNS[k]])) as Pick<typeof TABLE_COLUMNS, K>;
}

/** Each column of discord_servers: its key on a row, its name in SQL, and drizzle's decoding of its stored value. */
const COLUMNS = Object.entries(TABLE_COLUMNS).map(([key, column]) => ({
  key,
  name: column.name,
  decode: (value: unknown) => column.mapFromDriverValue(value),
}));

/**
 * The rows of a select over every column of discord_servers, read on the native prepared
 * connection when the runtime has one (Node, a file database), else through drizzle. The build
 * reads every server with a page this way: at 100,000 rows the client's own path built each row
 * three times (the driver's array, @libsql/client's object with a defined property per column
 * and per index, drizzle's copy) and cost about twice the native read, most of it garbage. Same rows, same values: each
 * column is decoded by drizzle's own mapping (booleans, JSON lists), nulls kept as nulls.
 */
export async function selectServerRows<T = ServerRow>(
  db: Db,
  query: ServerSelect<T>,
  only?: readonly (keyof ServerRow)[],
): Promise<T[]> {
  const prepared = preparedStatementsFor(db);
  if (!prepared) return query;
  const { sql, params } = query.toSQL();
  return decodeServerRows<T>(await prepared.all(sql, params as InValue[]), only);
}

/**
 * Rows of discord_servers columns as the native driver gives them (by column name), decoded as
 * drizzle would: only the `only` keys (as drizzle names them) when given.
 */
export function decodeServerRows<T = ServerRow>(
  rows: readonly Record<string, unknown>[],
  only?: readonly (keyof ServerRow)[],
): T[] {
  const columns = only ? COLUMNS.filter((c) => only.includes(c.key as keyof ServerRow)) : COLUMNS;
  return rows.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const c of columns) {
      const value = raw[c.name];
      row[c.key] = value === null ? null : c.decode(value);
    }
    return row as T;
  });
}
