import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { LibsqlError } from '@libsql/client';
import { BUSY_BUDGET_MS } from './busy';

/** Distinct statements the thread keeps prepared (one per batch size of each hot-path insert). */
const MAX_PREPARED = 128;

/**
 * The thread's code, plain JavaScript run as `eval` (no loader, no file to find after a bundle):
 * one native connection that keeps statements prepared and runs what the main thread posts, in
 * order. Its busy timeout is the app's budget: a lock held by another process is waited out
 * here, off the event loop. A failure leaves SQLite's statement un-reset and the connection on an
 * old snapshot (see db/client.ts), so the connection is reopened after any error.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let conn;
const statements = new Map();
const open = () => {
  conn = new Database(workerData.path, { timeout: workerData.busyMs });
  conn.exec('PRAGMA synchronous = NORMAL');
  conn.exec('PRAGMA foreign_keys = ON');
  return conn;
};
parentPort.on('message', ({ id, sql, args }) => {
  try {
    let st = statements.get(sql);
    if (!st) {
      st = (conn ?? open()).prepare(sql);
      if (statements.size < workerData.maxPrepared) statements.set(sql, st);
    }
    const { changes, lastInsertRowid } = st.run(args);
    parentPort.postMessage({ id, changes, lastInsertRowid });
  } catch (err) {
    statements.clear();
    try { conn?.close(); } catch {}
    conn = undefined;
    parentPort.postMessage({ id, error: { message: String(err?.message ?? err), code: err?.code, rawCode: err?.rawCode } });
  }
});
`;

interface Reply {
  id: number;
  changes?: number;
  lastInsertRowid?: number | bigint;
  error?: { message: string; code?: string; rawCode?: number };
}

/** Statements run on a connection of their own in a worker thread; `close` ends the thread. */
export interface WriteThread {
  run(sql: string, args: unknown[]): Promise<{ changes: number; lastInsertRowid: number | bigint }>;
  close(): void;
}

/**
 * Writes for the database file at `path` on a thread of their own. The native driver is
 * synchronous: a commit on the event loop holds every request for as long as it takes to append
 * the WAL's pages and, now and then, to checkpoint them (on the shared 2-core machine, one events
 * write in five held the loop 15 to 130 ms, about a tenth of its time under the api bench). On
 * this thread the event loop keeps parsing requests meanwhile,
 * and the group commit gathers them for the next write. The thread is started on first use and
 * holds the process open only while a write is in flight.
 */
export function writeThread(path: string): WriteThread {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve: (r: Reply) => void; reject: (err: unknown) => void }>();
  const fail = (err: unknown) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
    worker = undefined;
  };
  const start = () => {
    const w = new Worker(THREAD, {
      eval: true,
      workerData: {
        path,
        driver: createRequire(import.meta.url).resolve('libsql'),
        busyMs: BUSY_BUDGET_MS,
        maxPrepared: MAX_PREPARED,
      },
    });
    w.on('message', (reply: Reply) => {
      const p = pending.get(reply.id);
      pending.delete(reply.id);
      if (pending.size === 0) w.unref();
      p?.resolve(reply);
    });
    w.on('error', fail);
    w.on('exit', () => fail(new LibsqlError('The write thread ended', 'CLIENT_CLOSED')));
    return w;
  };
  return {
    run(sql, args) {
      worker ??= start();
      const w = worker;
      const id = nextId++;
      return new Promise<Reply>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.ref();
        w.postMessage({ id, sql, args });
      }).then(({ changes, lastInsertRowid, error }) => {
        if (error) throw new LibsqlError(error.message, error.code ?? 'SQLITE_ERROR', undefined, error.rawCode);
        return { changes: changes!, lastInsertRowid: lastInsertRowid! };
      });
    },
    close() {
      const w = worker;
      worker = undefined;
      void w?.terminate();
    },
  };
}
