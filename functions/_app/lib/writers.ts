import { type EventWrite, insertEvents } from '../../../db/queries/interactions';
import { insertSubmissions, type SubmissionRecord, type SubmissionWrite } from '../../../db/queries/submissions';
import type { AppDeps } from '../context';
import { canGroupCommit, GroupCommit } from './group-commit';

interface Writers {
  events: GroupCommit<EventWrite, true>;
  submissions: GroupCommit<SubmissionWrite, SubmissionRecord>;
}

/**
 * Writes are gathered turn by turn of the event loop (setImmediate): everything that arrived in
 * a turn shares the commit, and a busy server's turns are long, so batches grow with load. A
 * fixed 1 ms window added 1 ms to every answer, which for a bounded set of clients (each waiting
 * for its answer) capped throughput well below what the CPU allowed; a window kept open only
 * while requests keep arriving costs a lone request nothing.
 */
const WINDOW = (fn: () => void) => void setImmediate(fn);

/**
 * Turns a window stays open while rows keep arriving. With 50 clients a one-turn window wrote
 * about 28 rows per commit; up to 4 turns, about 40, and each commit (its WAL frames and page
 * writes) is shared by more rows.
 */
const WINDOW_TURNS = 4;

/** Whether this runtime shares writes between requests (fixed for the life of the process or isolate). */
const GROUP_COMMIT = canGroupCommit();

/** One set of group-commit writers per app (tests build many apps, each with its own database). */
const writers = new WeakMap<AppDeps, Writers>();

function writersFor(deps: AppDeps): Writers {
  let w = writers.get(deps);
  if (!w) {
    w = {
      events: new GroupCommit(
        async (rows) => {
          await insertEvents(deps.db, rows);
          return rows.map(() => true as const);
        },
        500,
        WINDOW,
        WINDOW_TURNS,
      ),
      submissions: new GroupCommit((rows) => insertSubmissions(deps.db, rows), 200, WINDOW, WINDOW_TURNS),
    };
    writers.set(deps, w);
  }
  return w;
}

/** Stores analytics events, sharing the write with concurrent requests where the runtime allows. */
export function recordEvents(deps: AppDeps, events: EventWrite[]): Promise<number> {
  if (!GROUP_COMMIT) return insertEvents(deps.db, events);
  return writersFor(deps)
    .events.add(events)
    .then((stored) => stored.length);
}

/** Stores one submission as pending, sharing the write with concurrent requests where allowed. */
export function storeSubmission(deps: AppDeps, input: SubmissionWrite): Promise<SubmissionRecord> {
  const stored = GROUP_COMMIT ? writersFor(deps).submissions.add([input]) : insertSubmissions(deps.db, [input]);
  return stored.then((rows) => rows[0]!);
}
