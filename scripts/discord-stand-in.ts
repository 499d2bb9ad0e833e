// `npm run discord:stand-in [-- --port 8790 --invites scripts/discord-stand-in.json]`: the tests'
// loopback Discord stand-in (tests/helpers/discord-stand-in.ts) as a process, for trying the
// freshness features and owner sign-in locally without asking discord.com. The JSON file holds
// `invites` (code → { guild: { id, name, icon?, features? }, memberCount, onlineCount, expiresAt? }),
// and for sign-in the `user` it signs in and that user's `guilds` ({ id, name, owner, permissions }
// as Discord lists them: a guild the user owns claims its listing at sign-in). It is read again
// whenever the file changes: edit a count, remove an invite, give the user another guild. Start
// `npm start` (or `npm run refresh`) with the DISCORD_API_BASE it prints.
import { readFileSync, watchFile } from 'node:fs';
import { parseArgs } from 'node:util';
import { applyStandInFile, startDiscordStandIn } from '../tests/helpers/discord-stand-in';

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
    const said = applyStandInFile(standIn, JSON.parse(readFileSync(file, 'utf8')));
    console.log(`${new Date().toISOString()} ${file}: ${said}`);
  } catch (error) {
    console.error(`${file} could not be read (the stand-in stays as it was): ${(error as Error).message}`);
  }
}
load();
watchFile(file, { interval: 500 }, load);
console.log(`Discord stand-in listening: DISCORD_API_BASE=${standIn.url}`);
console.log(`Owner sign-in: DISCORD_OAUTH_BASE=${standIn.origin}`);
