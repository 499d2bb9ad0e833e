import { describe, expect, it } from 'vitest';
import { NICHE_NOTICES, nicheNotice } from './niche-notices';

describe('niche notices', () => {
  it('warn crypto, trading and investing visitors that it is not financial advice, naming the scam patterns', () => {
    for (const category of ['Crypto', 'Trading', 'Investing']) {
      const notice = nicheNotice(category);
      expect(notice?.title).toBe('Not financial advice');
      for (const pattern of ['pump-and-dump', 'paid signals', 'impersonated staff', 'DMs asking for keys']) {
        expect(notice?.text).toContain(pattern);
      }
    }
  });
  it('give sports betting its age limits and responsible-gambling help', () => {
    const notice = nicheNotice('Sports Betting');
    expect(notice?.title).toContain('18+');
    expect(notice?.title).toContain('21+');
    expect(notice?.text).toContain('1-800-GAMBLER');
    expect(notice?.text).toContain('BeGambleAware');
    expect(notice?.help?.map((h) => h.href)).toEqual(['tel:+18004262537', 'https://www.begambleaware.org/']);
  });
  it('leave gaming and unknown categories without one', () => {
    expect(nicheNotice('Gaming')).toBeUndefined();
    expect(nicheNotice('Knitting')).toBeUndefined();
  });
  it('stay short', () => {
    for (const notice of Object.values(NICHE_NOTICES)) expect(notice.text.length).toBeLessThanOrEqual(240);
  });
});
