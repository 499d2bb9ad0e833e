// The Node server `npm start` runs (startNodeServer), in a process of its own for bench/million.ts:
// the load its pages take is measured from the bench process, so the bench's own work (the
// seeded database's connection, the load loop) never shares this event loop. It starts on a
// build the bench made (`<buildsDir>/current`), so it does not build at start. Talks to its parent
// over the IPC channel.
import type { RebuildStatus } from '../../functions/_app/context';
import { loadEnv } from '../../functions/_app/env';
import { startNodeServer } from '../../functions/_app/node';

/** What the parent passes as the one argument (JSON). */
export interface NodeServerBenchOptions {
  url: string;
  root: string;
  buildsDir: string;
  /** Environment of the rebuilds this server starts (the same heap limit as the measured build). */
  buildEnv: Record<string, string>;
  /** The public rate limits on (RATE_LIMITS=true, the default of `npm start`); off unless asked. */
  rateLimits?: boolean;
}

/** Where the server stands: the builder's status and the on-demand cache. */
export interface NodeServerState {
  status: RebuildStatus;
  /** When the live build began (ms since the epoch); 0 for the one found at start. */
  liveBuildStartedAt: number;
  cachedPages: number;
  /** What the last incremental publish rendered, wrote and removed (pages), or null when none ran. */
  publish: { rendered: number; written: number; removed: number } | null;
  /** Incremental publishes and full builds done since the start. */
  publishes: number;
  builds: number;
}

/** Messages from this process to the bench. */
export type NodeServerReply =
  | { type: 'listening'; port: number; rebuiltAtStart: boolean }
  | { type: 'state'; state: NodeServerState }
  | { type: 'idle'; state: NodeServerState };

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as NodeServerBenchOptions;
  let rebuiltAtStart = false;
  let publishes = 0;
  let builds = 0;
  const server = await startNodeServer({
    env: loadEnv({
      DATABASE_URL: options.url,
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMITS: options.rateLimits ? 'true' : 'false',
      REFRESH_ENABLED: 'false',
    }),
    root: options.root,
    buildsDir: options.buildsDir,
    buildEnv: options.buildEnv,
    log: (line) => {
      if (line.startsWith('Building the site')) rebuiltAtStart = true;
      if (line.startsWith('Published ')) publishes++;
      if (line.startsWith('Site rebuilt ')) builds++;
      if (line.startsWith('Incremental publish failed')) console.error(line);
    },
  });
  const state = (): NodeServerState => ({
    status: server.builder.status(),
    liveBuildStartedAt: server.builder.liveBuildStartedAt(),
    cachedPages: server.onDemand.size(),
    publish: server.builder.lastPublish
      ? {
          rendered: server.builder.lastPublish.rendered.length,
          written: server.builder.lastPublish.written.length,
          removed: server.builder.lastPublish.removed.length,
        }
      : null,
    publishes,
    builds,
  });
  const send = (reply: NodeServerReply) => process.send?.(reply);
  process.on('message', (message: string) => {
    if (message === 'state') send({ type: 'state', state: state() });
    if (message === 'idle') void server.builder.idle().then(() => send({ type: 'idle', state: state() }));
    if (message === 'close') {
      void server.close().finally(() => {
        process.disconnect?.();
        process.exit(0);
      });
    }
  });
  send({ type: 'listening', port: server.port, rebuiltAtStart });
}

await main();
