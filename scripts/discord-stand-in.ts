// `npm run discord:stand-in [-- --port 8790 --invites scripts/discord-stand-in.json]`: the tests'
// loopback Discord stand-in (tests/helpers/discord-stand-in.ts) as a process, for trying the
// freshness features locally without asking discord.com. It knows the invites of the JSON file
// (code → { guild: { id, name, icon? , features? }, memberCount, onlineCount, expiresAt? }), read
// again whenever the file changes: edit a count, or remove an invite to make it unknown. Start
// `npm start` (or `npm run refresh`) with the DISCORD_API_BASE it prints.
import { readFileSync, watchFile } from 'node:fs';
import { parseArgs } from 'node:util';
import { type StandInInvite, startDiscordStandIn } from '../tests/helpers/discord-stand-in';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8790' },
    invites: { type: 'string', default: 'scripts/discord-stand-in.json' },
  },
});
const standIn = await startDiscordStandIn({ port: Number(values.port) });
const file = values.invites;

function load() {
  try {
    const invites = JSON.parse(readFileSync(file, 'utf8')) as Record<string, StandInInvite>;
    standIn.invites = new Map(Object.entries(invites));
    console.log(
      `${new Date().toISOString()} invites from ${file}: ${[...standIn.invites.keys()].join(', ') || 'none'}`,
    );
  } catch (error) {
    console.error(`${file} could not be read (the invites stay as they were): ${(error as Error).message}`);
  }
}
load();
watchFile(file, { interval: 500 }, load);
console.log(`Discord stand-in listening: DISCORD_API_BASE=${standIn.url}`);
