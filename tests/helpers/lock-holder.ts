import { spawn } from 'node:child_process';

/**
 * Runs in a child process: takes the write lock with BEGIN EXCLUSIVE and an uncommitted insert
 * (in WAL mode that blocks every writer while readers keep their snapshot), says "locked", and
 * commits when told "release" on stdin. It uses the native driver the app runs on.
 */
const LOCK_HOLDER = `
import { createRequire } from 'node:module';
const require = createRequire(createRequire(process.cwd() + '/package.json').resolve('@libsql/client'));
const Database = require('libsql');
const db = new Database(process.argv[1]);
db.exec('BEGIN EXCLUSIVE');
db.prepare("INSERT INTO newsletter_subscribers (email, source) VALUES ('holder@example.com', 'homepage_signup')").run();
process.stdout.write('locked\\n');
process.stdin.setEncoding('utf8');
process.stdin.on('data', (line) => {
  if (!line.includes('release')) return;
  db.exec('COMMIT');
  db.close();
  process.stdout.write('released\\n');
  process.exit(0);
});
`;

/** The email of the row the lock holder inserts, visible once it has released (committed). */
export const HOLDER_EMAIL = 'holder@example.com';

/**
 * Has another process hold the write lock of the database file at `path` (a migrated test
 * database), resolving once it does. `release` commits its insert and waits for it to exit;
 * `stop` kills it if it still runs (cleanup).
 */
export async function holdWriteLock(path: string) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', LOCK_HOLDER, path], { cwd: process.cwd() });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  /** Resolves once the holder has printed `word`; rejects if it exits first. */
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (out.includes(word)) resolve();
      };
      child.stdout.on('data', check);
      void exited.then((code) => {
        check();
        reject(new Error(`the lock holder exited with ${code} before saying "${word}": ${err}`));
      });
      check();
    });
  await said('locked');
  return {
    release: async () => {
      child.stdin.write('release\n');
      await said('released');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
    },
  };
}
