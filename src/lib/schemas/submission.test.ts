import { describe, expect, it } from 'vitest';
import { subcategoryNames } from '../categories';
import { featureLines, submissionSchema } from './submission';

const valid = {
  server_name: '  Pixel Raiders  ',
  server_description: 'A friendly community for retro platformer speedrunners.',
  category: 'Gaming',
  invite_link: 'discord.com/invite/PixelRaid',
  server_image: 'https://cdn.example.com/p.png',
  contact_email: 'Owner@Example.COM',
  member_count: '12,500',
  active_users: 'lots',
  submitter_name: 'Ada',
  is_owner: 'on',
  terms: 'on',
};

describe('submissionSchema', () => {
  it('trims text, canonicalises the invite, lowercases the email and parses counts', () => {
    const out = submissionSchema.parse(valid);
    expect(out).toMatchObject({
      server_name: 'Pixel Raiders',
      invite_link: 'https://discord.gg/PixelRaid',
      contact_email: 'owner@example.com',
      member_count: 12500,
      active_users: 0,
      is_owner: true,
      terms: true,
    });
  });

  it('refuses invites that are not Discord invites', () => {
    for (const invite_link of ['https://evil.example/invite/x', 'javascript:alert(1)', 'discord.gg.evil.example/x']) {
      expect(submissionSchema.safeParse({ ...valid, invite_link }).success).toBe(false);
    }
  });

  it('refuses non-https, javascript: and data: image URLs', () => {
    for (const server_image of ['http://cdn.example.com/p.png', 'javascript:alert(1)', 'data:image/png;base64,AA']) {
      expect(submissionSchema.safeParse({ ...valid, server_image }).success).toBe(false);
    }
  });

  it('refuses icon URLs on IP literals, loopback and internal hosts, naming the icon URL', () => {
    for (const server_image of [
      'https://169.254.169.254/latest/meta-data/',
      'https://2852039166/',
      'https://0x7f.1/',
      'https://[::1]/p.png',
      'https://localhost/p.png',
      'https://metadata.google.internal/',
    ]) {
      const result = submissionSchema.safeParse({ ...valid, server_image });
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({
          path: ['server_image'],
          message: expect.stringMatching(/^Icon URL must be on a public/),
        }),
      ]);
    }
  });

  it('refuses control characters and over-long names', () => {
    expect(submissionSchema.safeParse({ ...valid, server_name: 'A\u0000B' }).success).toBe(false);
    expect(submissionSchema.safeParse({ ...valid, server_name: 'x'.repeat(101) }).success).toBe(false);
  });

  it('requires the terms and an empty honeypot', () => {
    expect(submissionSchema.safeParse({ ...valid, terms: undefined }).success).toBe(false);
    expect(submissionSchema.safeParse({ ...valid, website: 'http://spam.example' }).success).toBe(false);
    expect(submissionSchema.safeParse({ ...valid, website: '' }).success).toBe(true);
  });
});

describe('featureLines', () => {
  it('splits lines, strips bullets and drops blanks', () => {
    expect(featureLines('- One\r\n\n* Two \n•Three')).toEqual(['One', 'Two', 'Three']);
    expect(featureLines(null)).toEqual([]);
  });
});

describe('the optional subcategory', () => {
  it('accepts a subcategory of the chosen category, and none', () => {
    expect(submissionSchema.parse({ ...valid, category: 'Trading', subcategory: 'Forex Trading' }).subcategory).toBe(
      'Forex Trading',
    );
    expect(submissionSchema.parse({ ...valid, category: 'Trading', subcategory: '' }).subcategory).toBeUndefined();
    expect(submissionSchema.parse(valid).subcategory).toBeUndefined();
  });

  it('refuses a subcategory of another category, or any for Gaming, naming the field', () => {
    for (const [category, subcategory] of [
      ['Investing', 'Forex Trading'],
      ['Gaming', 'Bitcoin'],
      ['Crypto', 'Dogecoin'],
    ]) {
      const result = submissionSchema.safeParse({ ...valid, category, subcategory });
      expect(result.success, `${category}/${subcategory}`).toBe(false);
      expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['subcategory']);
    }
  });

  it('lists the subcategories each category offers, from the one enumeration', () => {
    expect(subcategoryNames('Gaming')).toEqual([]);
    expect(subcategoryNames('Investing')).toEqual(['Stocks', 'Forex', 'Options', 'Day Trading']);
  });
});
