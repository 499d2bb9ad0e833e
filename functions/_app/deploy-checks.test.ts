import { describe, expect, it } from 'vitest';
import { FREE_PLAN_SUBREQUESTS, WORKER_LOOKUPS_PER_PASS } from '../../src/lib/invite-checks/budget';
import { deployVarsProblems, workerSecretsProblems } from './deploy-checks';

describe('deployVarsProblems (npm run deploy, before anything happens)', () => {
  const ok = { SITE_URL: 'https://guildrank.gg', REFRESH_LOOKUPS_PER_PASS: String(WORKER_LOOKUPS_PER_PASS) };

  it('takes the repository’s pace on the Free plan, and more where the plan allows more subrequests', () => {
    expect(deployVarsProblems(ok, FREE_PLAN_SUBREQUESTS)).toEqual([]);
    expect(deployVarsProblems({ ...ok, REFRESH_LOOKUPS_PER_PASS: '40' }, 10_000)).toEqual([]);
  });

  it('refuses a missing or invalid REFRESH_LOOKUPS_PER_PASS, naming it', () => {
    const { REFRESH_LOOKUPS_PER_PASS: _, ...without } = ok;
    for (const vars of [without, { ...ok, REFRESH_LOOKUPS_PER_PASS: '' }]) {
      const [problem, ...rest] = deployVarsProblems(vars, FREE_PLAN_SUBREQUESTS);
      expect(rest).toEqual([]);
      expect(problem).toMatch(/^REFRESH_LOOKUPS_PER_PASS: not set/);
      expect(problem).toContain(`at most ${WORKER_LOOKUPS_PER_PASS}`);
    }
    for (const bad of ['0', '-1', '2.5', 'eight', '201']) {
      const problems = deployVarsProblems({ ...ok, REFRESH_LOOKUPS_PER_PASS: bad }, FREE_PLAN_SUBREQUESTS);
      expect(problems, bad).toHaveLength(1);
      expect(problems[0], bad).toMatch(/^REFRESH_LOOKUPS_PER_PASS: /);
    }
  });

  it('refuses a pace whose invocation would pass the plan’s subrequests', () => {
    const over = String(WORKER_LOOKUPS_PER_PASS + 1);
    const [problem] = deployVarsProblems({ ...ok, REFRESH_LOOKUPS_PER_PASS: over }, FREE_PLAN_SUBREQUESTS);
    expect(problem).toMatch(
      new RegExp(
        `^REFRESH_LOOKUPS_PER_PASS: ${over} lookups a pass need up to \\d+ subrequests an invocation, over the 50`,
      ),
    );
    expect(problem).toContain('[limits] subrequests');
  });

  it('names every other invalid setting of [vars], the ones pages state and the Worker’s own', () => {
    const problems = deployVarsProblems(
      { ...ok, SUPPORT_EMAIL: 'nobody', MIN_MEMBERS: 'many', RATE_LIMITS: 'yes' },
      FREE_PLAN_SUBREQUESTS,
    );
    expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['MIN_MEMBERS', 'RATE_LIMITS', 'SUPPORT_EMAIL']);
  });
});

describe('workerSecretsProblems (a real npm run deploy, from wrangler secret list)', () => {
  const vars = { SITE_URL: 'https://guildrank.gg', REFRESH_LOOKUPS_PER_PASS: '8' };
  const needed = ['DATABASE_URL', 'DATABASE_AUTH_TOKEN', 'IP_HASH_SECRET', 'SESSION_SECRET'];
  const names = (problems: string[]) => problems.map((p) => p.split(':')[0]);

  it('takes a Worker with the secrets docs/deploy.md step 5 puts', () => {
    expect(workerSecretsProblems(needed, vars, {})).toEqual([]);
    expect(workerSecretsProblems(needed.slice(0, 2), { ...vars, SITE_URL: 'http://10.0.0.1' }, {})).toEqual([]);
  });

  it('names each secret the Worker would refuse to start without', () => {
    expect(names(workerSecretsProblems([], vars, {}))).toEqual(needed);
    expect(names(workerSecretsProblems(needed, { ...vars, TURNSTILE_SITE_KEY: 'k' }, {}))).toEqual([
      'TURNSTILE_SECRET',
    ]);
    expect(names(workerSecretsProblems([...needed, 'DISCORD_CLIENT_ID'], vars, {}))).toEqual(['DISCORD_CLIENT_SECRET']);
  });

  it('refuses a shared setting set as a secret, which the build would not see', () => {
    expect(names(workerSecretsProblems([...needed, 'MIN_MEMBERS'], vars, {}))).toEqual(['MIN_MEMBERS']);
  });

  it('refuses pages that would say buying is closed while the Worker sells, and the reverse', () => {
    const stripe = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'];
    const keys = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(workerSecretsProblems([...needed, ...stripe], vars, keys)).toEqual([]);
    expect(workerSecretsProblems([...needed, ...stripe], vars, {})[0]).toMatch(/pages would say buying is closed/);
    expect(workerSecretsProblems(needed, vars, keys)[0]).toMatch(/pages would offer buying the Worker refuses/);
  });
});
