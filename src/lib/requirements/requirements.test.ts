import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGE_STATEMENTS,
  ageRestrictionRefusal,
  highlight,
  inviteRefusals,
  matchPhrases,
  membersRefusal,
  permanentInviteRefusal,
  phraseFlags,
  REQUIREMENT_IDS,
  RETURN_PROMISES,
  requirements,
  requirementsSummary,
} from '.';

const PROMISES = [
  'guaranteed profit',
  'Guaranteed returns',
  '100% win rate',
  '95% accuracy',
  'risk-free',
  'Risk free',
  'no risk',
  "can't lose",
  'double your money',
  '5% daily returns',
  'profits are guaranteed',
  'sure win',
];

describe('the phrase matcher', () => {
  it('finds every promise of returns, whatever its case', () => {
    for (const phrase of PROMISES) {
      const matches = matchPhrases(`Join us: ${phrase} every week`, RETURN_PROMISES);
      expect(
        matches.map((m) => m.text.toLowerCase()),
        phrase,
      ).toEqual([phrase.toLowerCase()]);
    }
  });

  it('finds nothing in honest copy', () => {
    for (const text of [
      'Daily charts, education and a friendly community. Not financial advice.',
      'We discuss risk management and position sizing.',
      'Win rates of our members vary; most lose money.',
    ])
      expect(matchPhrases(text, RETURN_PROMISES)).toEqual([]);
  });

  it('property: matches are in order, inside the text, never overlapping, and are what the text says there', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom(...PROMISES)), { maxLength: 8 }), (parts) => {
        const text = parts.join(' ');
        const matches = matchPhrases(text, RETURN_PROMISES);
        let at = 0;
        for (const m of matches) {
          expect(m.start).toBeGreaterThanOrEqual(at);
          expect(m.end).toBeGreaterThan(m.start);
          expect(m.end).toBeLessThanOrEqual(text.length);
          expect(text.slice(m.start, m.end)).toBe(m.text);
          at = m.end;
        }
      }),
    );
  });

  it('property: a promise set between spaces in any text is found', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...PROMISES), fc.string(), (before, phrase, after) => {
        const text = `${before} ${phrase} ${after}`;
        const start = before.length + 1;
        const matches = matchPhrases(text, RETURN_PROMISES);
        expect(matches.some((m) => m.start <= start && m.end >= start + phrase.length - 1)).toBe(true);
      }),
    );
  });

  it('property: the highlighted pieces join back into the text, and the hits are the matches', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom(...PROMISES)), { maxLength: 8 }), (parts) => {
        const text = parts.join(' ');
        const matches = matchPhrases(text, RETURN_PROMISES);
        const pieces = highlight(text, matches);
        expect(pieces.map((p) => p.text).join('')).toBe(text);
        expect(pieces.filter((p) => p.hit).map((p) => p.text)).toEqual(matches.map((m) => m.text));
      }),
    );
  });

  it('property: matching is case-blind', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom(...PROMISES)), { maxLength: 6 }), (parts) => {
        const text = parts.join(' ');
        const lower = matchPhrases(text.toLowerCase(), RETURN_PROMISES).length;
        // Upper-casing some letters (İ, ß) changes the length; compare on ASCII-safe text only.
        if (text.toUpperCase().length === text.length && text.toLowerCase().length === text.length)
          expect(matchPhrases(text.toUpperCase(), RETURN_PROMISES).length).toBe(lower);
      }),
    );
  });
});

describe('the refusing requirements', () => {
  it('members: refuses under the minimum, naming it and linking it; accepts at the minimum', () => {
    const refused = membersRefusal(7, 50);
    expect(refused).toMatchObject({ rule: 'members', href: '/requirements#members' });
    expect(refused?.message).toMatch(/7 members.*at least 50.*\/requirements#members/);
    expect(membersRefusal(50, 50)).toBeNull();
    expect(membersRefusal(null, 1)?.rule).toBe('members');
  });

  it('permanent-invite: an invite with an expiry is refused, saying so', () => {
    const refused = permanentInviteRefusal('2030-01-02T03:04:05.000Z', 50);
    expect(refused?.message).toMatch(/expires \(2030-01-02 03:04 UTC\).*never expire.*\/requirements#permanent-invite/);
    expect(permanentInviteRefusal(null, 50)).toBeNull();
  });

  it('not-age-restricted: refused outside sports betting, allowed in it', () => {
    for (const level of [1, 3]) {
      expect(ageRestrictionRefusal(level, 'Gaming', 50)?.rule).toBe('not-age-restricted');
      expect(ageRestrictionRefusal(level, 'Sports Betting', 50)).toBeNull();
    }
    for (const level of [0, 2, null]) expect(ageRestrictionRefusal(level, 'Crypto', 50)).toBeNull();
  });

  it('inviteRefusals lists each failed rule once, the age rule only with a category', () => {
    const facts = { memberCount: 3, expiresAt: '2030-01-01T00:00:00Z', nsfwLevel: 3 };
    expect(inviteRefusals(facts, { minMembers: 50 }).map((r) => r.rule)).toEqual(['permanent-invite', 'members']);
    expect(inviteRefusals(facts, { minMembers: 50, category: 'Gaming' }).map((r) => r.rule)).toEqual([
      'permanent-invite',
      'members',
      'not-age-restricted',
    ]);
    expect(inviteRefusals({ memberCount: 60, expiresAt: null, nsfwLevel: 0 }, { minMembers: 50 })).toEqual([]);
  });
});

describe('the flagging requirements', () => {
  it('no-promised-returns: flags crypto, trading and investing copy with the matched words, never gaming', () => {
    for (const category of ['Crypto', 'Trading', 'Investing']) {
      const [flag, ...rest] = phraseFlags({
        category,
        server_description: 'Guaranteed profit with our 100% win rate signals.',
        features: 'Risk-free copy trading',
      });
      expect(rest).toEqual([]);
      expect(flag?.rule).toBe('no-promised-returns');
      expect(flag?.fields.map((f) => [f.field, f.matches.map((m) => m.text)])).toEqual([
        ['server_description', ['Guaranteed profit', '100% win rate']],
        ['features', ['Risk-free']],
      ]);
    }
    expect(
      phraseFlags({ category: 'Gaming', server_description: 'Guaranteed profit, risk-free', features: null }),
    ).toEqual([]);
  });

  it('betting-18-plus: flags sports betting copy without an 18+ statement, not one with', () => {
    expect(
      phraseFlags({ category: 'Sports Betting', server_description: 'NFL picks every week', features: null }).map(
        (f) => f.rule,
      ),
    ).toEqual(['betting-18-plus']);
    for (const statement of ['18+ only', 'Members must be 18 or older', 'adults only', 'You must be over 18', '21+'])
      expect(
        phraseFlags({ category: 'Sports Betting', server_description: 'NFL picks', features: statement }),
        statement,
      ).toEqual([]);
    expect(matchPhrases('118+ members', AGE_STATEMENTS)).toEqual([]);
  });
});

describe('the stated requirements', () => {
  it('list every rule once with its enforcement, and the summary names each', () => {
    const all = requirements(75);
    expect(all.map((r) => r.id)).toEqual([...REQUIREMENT_IDS]);
    expect(all[0]?.title).toBe('At least 75 members');
    const summary = requirementsSummary(75);
    for (const r of all) expect(summary.toLowerCase()).toContain(r.title.toLowerCase());
  });
});
