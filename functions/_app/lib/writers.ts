import { type EventWrite, insertEvents } from '../../../db/queries/interactions';
import { insertSubmissions, type SubmissionRecord, type SubmissionWrite } from '../../../db/queries/submissions';
import type { AppDeps } from '../context';
import { canGroupCommit, GroupCommit } from './group-commit';

interface Writers {
  events: GroupCommit<EventWrite, true>;
  submissions: GroupCommit<SubmissionWrite, SubmissionRecord>;
}

/**
 * Writes are gathered for one event-loop turn (setImmediate): everything that arrived in that
 * turn shares the commit, and a busy server's turns are long, so batches grow with load. A fixed
 * 1 ms window added 1 ms to every answer, which for a bounded set of clients (each waiting for
 * its answer) capped throughput well below what the CPU allowed.
 */
const WINDOW = (fn: () => void) => void setImmediate(fn);

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
      ),
      submissions: new GroupCommit((rows) => insertSubmissions(deps.db, rows), 200, WINDOW),
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
