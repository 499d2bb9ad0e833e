import { FREE_PLAN_SUBREQUESTS, maxLookupsPerPass, passSubrequests } from '../../src/lib/invite-checks/budget';
import { BUILD_SETTING_NAMES } from './build-settings';
import { envSchema, SECRET_NAMES } from './env';

// What `npm run deploy` (scripts/deploy.ts) checks before anything happens: the wrangler config's
// [vars], and on a real deploy the Worker's secrets, so nothing goes out that the Worker would
// refuse to start with or that would make the pages state what the Worker does not do.

/**
 * What in a wrangler config's `[vars]` (`vars`, as text) stops `npm run deploy` before anything
 * happens, one line per setting, named: any value the Worker would refuse to start with (checked
 * as the Worker checks it, env.ts), and REFRESH_LOOKUPS_PER_PASS unset (the pages would state the
 * unpaced figure of `npm start`) or more than an invocation's `subrequests` allow (wrangler.toml
 * `[limits] subrequests`, else the Free plan's 50).
 */
export function deployVarsProblems(
  vars: Record<string, string>,
  subrequests: number,
  where = 'wrangler.toml',
): string[] {
  const problems: string[] = [];
  const pace = vars.REFRESH_LOOKUPS_PER_PASS;
  // An empty pace is said once, as unset.
  const { REFRESH_LOOKUPS_PER_PASS: _, ...rest } = vars;
  const parsed = envSchema.safeParse(pace ? vars : rest);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      problems.push(
        `${issue.path.join('.')}: ${issue.message} (${where} [vars] has ${JSON.stringify(vars[String(issue.path[0])])})`,
      );
    }
  }
  const most = maxLookupsPerPass(subrequests);
  const range = `a whole number from 1 to ${most}, the most whose invocation stays within ${subrequests} subrequests`;
  if (!pace) {
    problems.push(
      `REFRESH_LOOKUPS_PER_PASS: not set in ${where} [vars]: the Worker's Discord lookups a refresh pass, which the help page's figure states; ${range} (at most ${most})`,
    );
  } else {
    const lookups = envSchema.shape.REFRESH_LOOKUPS_PER_PASS.safeParse(pace).data;
    if (lookups !== undefined && lookups > most) {
      problems.push(
        `REFRESH_LOOKUPS_PER_PASS: ${lookups} lookups a pass need up to ${passSubrequests(lookups)} subrequests an invocation, over the ${subrequests} it may make (${where} [limits] subrequests, else the Free plan's ${FREE_PLAN_SUBREQUESTS}): set at most ${most}, or on Workers Paid raise [limits] subrequests`,
      );
    }
  }
  return problems;
}

/** Settings that are secrets of the Worker (`wrangler secret put`), set together or not at all. */
const SECRET_PAIRS = [
  ['DISCORD_CLIENT_ID', 'DISCORD_CLIENT_SECRET'],
  ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
] as const;

/**
 * What the Worker's secrets (their names, from `wrangler secret list`) lack for the deploy to
 * start, one named line each: the database's URL and token; on an https SITE_URL the secrets it
 * refuses to start without; TURNSTILE_SECRET with a site key; both halves of a pair; a shared
 * setting (BUILD_SETTING_NAMES) set as a secret, which the build would not see. And payments: the
 * pages state whether buying is open from the Stripe keys the build is given (`shell`, this
 * deploy's environment), so they must be the Worker's too, or neither.
 */
export function workerSecretsProblems(
  secrets: readonly string[],
  vars: Record<string, string>,
  shell: Record<string, string | undefined>,
  where = 'wrangler.toml',
): string[] {
  const problems: string[] = [];
  const named = new Set(secrets);
  const has = (name: string) => named.has(name) || Boolean(vars[name]);
  const put = (name: string) => `npx wrangler secret put ${name}`;
  for (const name of ['DATABASE_URL', 'DATABASE_AUTH_TOKEN']) {
    if (!has(name))
      problems.push(`${name}: not a secret of the Worker, which reads the database with it (${put(name)})`);
  }
  if (vars.SITE_URL?.startsWith('https:')) {
    for (const name of SECRET_NAMES) {
      if (!has(name))
        problems.push(
          `${name}: not a secret of the Worker, which refuses to start without it on an https site (${put(name)}, a random value of 32+ bytes)`,
        );
    }
  }
  if (vars.TURNSTILE_SITE_KEY && !has('TURNSTILE_SECRET')) {
    problems.push(
      `TURNSTILE_SECRET: not a secret of the Worker, which refuses to start with TURNSTILE_SITE_KEY and without it (${put('TURNSTILE_SECRET')})`,
    );
  }
  for (const pair of SECRET_PAIRS) {
    const set = pair.filter(has);
    if (set.length === 1) {
      const other = pair.find((n) => n !== set[0])!;
      problems.push(
        `${other}: not a secret of the Worker, which has ${set[0]} and refuses to start with one alone (${put(other)}, or wrangler secret delete ${set[0]})`,
      );
    }
  }
  for (const name of BUILD_SETTING_NAMES) {
    if (named.has(name))
      problems.push(
        `${name}: a secret of the Worker, which the build does not see: set it in ${where} [vars] only (npx wrangler secret delete ${name})`,
      );
  }
  const workerPays = named.has('STRIPE_SECRET_KEY') && named.has('STRIPE_WEBHOOK_SECRET');
  const buildPays = Boolean(shell.STRIPE_SECRET_KEY && shell.STRIPE_WEBHOOK_SECRET);
  if (workerPays !== buildPays) {
    problems.push(
      workerPays
        ? 'STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: the Worker has both (buying is open) but this deploy has neither: its pages would say buying is closed; give the deploy the same two (docs/payments.md)'
        : 'STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: this deploy has both but the Worker has not: its pages would offer buying the Worker refuses; put both into the Worker (docs/payments.md), or unset them here',
    );
  }
  return problems;
}
