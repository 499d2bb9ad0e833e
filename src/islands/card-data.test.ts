import { describe, expect, it } from 'vitest';
import { joinProps, toCard } from './card-data';

const row = {
  id: 1,
  name: 'Pixel Raiders',
  slug: 'pixel-raiders',
  description: 'Retro speedruns',
  category: 'Gaming',
  members: 1200,
  image_url: null,
  tags: ['retro', 'speedrun', 'platformer', 'extra'],
  is_premium: false,
  is_sponsored: false,
  affiliate_link: 'https://discord.gg/pixel',
};

describe('toCard', () => {
  it('says whether the server has a join link without passing the link itself', () => {
    expect(toCard(row)).toMatchObject({ has_link: true, tags: ['retro', 'speedrun', 'platformer'] });
    expect(toCard(row)).not.toHaveProperty('affiliate_link');
    expect(toCard({ ...row, affiliate_link: null }).has_link).toBe(false);
    expect(toCard({ ...row, affiliate_link: 'javascript:alert(1)' }).has_link).toBe(false);
  });
});

describe('toCard and Discord', () => {
  it("shows the guild's icon from Discord's CDN once checked, else the stored image", () => {
    const checked = { ...row, image_url: '/icons/x.png', guild_id: '81384788765712384', guild_icon: 'abc123' };
    expect(toCard(checked).image_url).toBe('https://cdn.discordapp.com/icons/81384788765712384/abc123.png?size=128');
    expect(toCard({ ...checked, guild_icon: null }).image_url).toBe('/icons/x.png');
    expect(toCard(row).image_url).toBeNull();
  });
  it('replaces Join with a notice when the invite stopped working or is paused', () => {
    expect(toCard({ ...row, invite_status: 'suspect' }).invite_notice).toMatch(/stopped working/);
    expect(toCard({ ...row, invite_status: 'paused' }).invite_notice).toMatch(/paused/);
    expect(toCard({ ...row, invite_status: 'ok' }).invite_notice).toBeNull();
    expect(toCard({ ...row, invite_status: 'expiring' }).invite_notice).toBeNull();
  });
});

describe('joinProps', () => {
  it('gives no Join button to a server without a link, premium or not', () => {
    expect(joinProps({ slug: 'x', is_premium: false, is_sponsored: false, has_link: false })).toBeNull();
    expect(joinProps({ slug: 'x', is_premium: true, is_sponsored: true, has_link: false })).toBeNull();
  });

  it('labels the button Join Premium for premium or sponsored servers and Join Server otherwise', () => {
    expect(joinProps({ slug: 'x y', is_premium: false, is_sponsored: true, has_link: true })).toMatchObject({
      href: '/go/x%20y',
      label: 'Join Premium',
      paid: true,
    });
    expect(joinProps({ slug: 'x', is_premium: false, is_sponsored: false, has_link: true })?.label).toBe('Join Server');
  });
});
