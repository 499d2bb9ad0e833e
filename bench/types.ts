/** One table of BENCHMARKS.md. */
export interface BenchSection {
  title: string;
  /** What was measured and how, one paragraph. */
  description?: string;
  /** First row is the header. */
  rows: (string | number)[][];
  /** Lines printed under the table (targets met or missed, caveats). */
  notes?: string[];
}

/** Shared settings for every bench module. */
export interface BenchContext {
  /** Project root. */
  root: string;
  /** A scratch folder for this run (deleted afterwards). */
  tmp: string;
  /** `--quick`: smaller sizes for a smoke run. */
  quick: boolean;
  /**
   * `--db <file>`: a prepared libSQL file (e.g. `npm run db:fake -- --servers 1000000`'s) that the
   * benches taking one copy instead of seeding their own (badges); never written to.
   */
  db?: string | undefined;
  /** `--events`: the API bench measures only its events rows (hello-world, the chain, the previous fast path). */
  eventsOnly: boolean;
  log: (line: string) => void;
}

/** Every bench module (bench/<name>.ts) exports this. */
export type BenchModule = (ctx: BenchContext) => Promise<BenchSection[]>;
