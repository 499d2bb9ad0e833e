import { DOMParser } from '@xmldom/xmldom';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INVITE_STATUSES } from '../enums';
import { formatMembers } from '../format';
import {
  BADGE_NO_REVIEWS,
  BADGE_STYLES,
  BADGE_UNAVAILABLE,
  type BadgeListing,
  badgeMessage,
  badgeSvg,
  textWidth,
} from './badge';

/** Parses an SVG as strict XML: any well-formedness error throws. */
function parseSvg(svg: string) {
  const doc = new DOMParser({
    onError: (level, msg) => {
      if (level !== 'warning') throw new Error(msg);
    },
  }).parseFromString(svg, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root) throw new Error('no root');
  return root;
}

const listing = (over: Partial<BadgeListing> = {}): BadgeListing => ({
  is_active: true,
  category: 'Gaming',
  invite_status: 'ok',
  members: 12_400,
  active_users: 1_900,
  ...over,
});

describe('badgeMessage', () => {
  it('writes both counts as the cards do by default', () => {
    expect(badgeMessage(listing(), 'default')).toBe('12.4K members · 1.9K online');
    expect(badgeMessage(listing(), 'members')).toBe('12.4K members');
    expect(badgeMessage(listing(), 'online')).toBe('1.9K online');
  });

  it('gives the rank in the category, or says there is none yet', () => {
    expect(badgeMessage(listing(), 'rank', { rank: 3, of: 40 })).toBe('#3 in Gaming');
    expect(badgeMessage(listing(), 'rank')).toBe('not ranked in Gaming yet');
  });

  it('says there are no reviews yet while ratings are null', () => {
    expect(badgeMessage(listing(), 'rating')).toBe(BADGE_NO_REVIEWS);
    expect(badgeMessage(listing(), 'rating', undefined, 4.25)).toBe('4.3 / 5');
  });

  it('is unavailable for a hidden listing, a dead invite, another guild or no listing', () => {
    expect(badgeMessage(null, 'default')).toBe(BADGE_UNAVAILABLE);
    expect(badgeMessage(listing({ is_active: false }), 'members')).toBe(BADGE_UNAVAILABLE);
    expect(badgeMessage(listing({ invite_status: 'dead' }), 'online')).toBe(BADGE_UNAVAILABLE);
    expect(badgeMessage(listing({ invite_status: 'wrong_guild' }), 'rank')).toBe(BADGE_UNAVAILABLE);
    expect(badgeMessage(listing({ category: 'Education' }), 'default')).toBe(BADGE_UNAVAILABLE);
  });

  it('shows the same numbers formatMembers writes, for any counts and listed states', () => {
    fc.assert(
      fc.property(
        fc.nat(2_000_000_000),
        fc.nat(2_000_000_000),
        fc.constantFrom(...INVITE_STATUSES),
        (members, online, status) => {
          const text = badgeMessage(listing({ members, active_users: online, invite_status: status }), 'default');
          if (status === 'dead' || status === 'wrong_guild') expect(text).toBe(BADGE_UNAVAILABLE);
          else expect(text).toBe(`${formatMembers(members)} members · ${formatMembers(online)} online`);
        },
      ),
    );
  });
});

describe('badgeSvg', () => {
  it('is well-formed XML with role="img", a title and both texts, for any text in any style', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        fc.constantFrom(...BADGE_STYLES),
        fc.boolean(),
        (message, style, grey) => {
          // XML 1.0 cannot carry most control characters at all: the route never writes them.
          const clean = message.replace(/[\u0000-\u001f\ufffe\uffff\ud800-\udfff]/g, '');
          const root = parseSvg(badgeSvg({ label: 'GuildRank', message: clean, style, unavailable: grey }));
          expect(root.getAttribute('role')).toBe('img');
          expect(root.getElementsByTagName('title')[0]?.textContent).toBe(`GuildRank: ${clean}`);
          const texts = Array.from(root.getElementsByTagName('text')).map((t) => t.textContent);
          expect(texts).toEqual(['GuildRank', clean]);
          expect(Number(root.getAttribute('width'))).toBe(textWidth('GuildRank') + textWidth(clean) + 24);
        },
      ),
    );
  });

  it('draws an unavailable badge grey and a live one in the style colour', () => {
    const grey = badgeSvg({ label: 'GuildRank', message: BADGE_UNAVAILABLE, style: 'light', unavailable: true });
    const live = badgeSvg({ label: 'GuildRank', message: '1 members', style: 'light', unavailable: false });
    expect(grey).toContain('fill="#6b7280"');
    expect(live).not.toContain('#6b7280');
    expect(badgeSvg({ label: 'a', message: 'b', style: 'dark', unavailable: false })).toContain('#1f2937');
  });
});
