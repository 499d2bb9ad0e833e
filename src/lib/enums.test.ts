import { describe, expect, it } from 'vitest';
import { REPORT_REASONS, reportReasonsFor } from './enums';

const values = (category: string) => reportReasonsFor(category).map((r) => r.value);
const GENERAL = ['inappropriate_content', 'spam', 'broken_link', 'misleading_info', 'inactive_server', 'other'];

describe('reportReasonsFor', () => {
  it('offers every listing the general reasons, Other last', () => {
    for (const category of ['Gaming', 'Crypto', 'Sports Betting']) {
      expect(values(category)).toEqual(expect.arrayContaining(GENERAL));
      expect(values(category).at(-1)).toBe('other');
    }
    expect(values('Gaming')).toEqual(GENERAL);
  });
  it('adds the finance niches’ scams, impersonation and undisclosed paid signals', () => {
    for (const category of ['Crypto', 'Trading', 'Investing']) {
      expect(values(category)).toEqual(
        expect.arrayContaining(['scam_pump_and_dump', 'impersonation', 'paid_signals_undisclosed']),
      );
      expect(values(category)).not.toContain('underage_gambling');
    }
  });
  it('adds underage gambling on sports betting listings only', () => {
    expect(values('Sports Betting')).toContain('underage_gambling');
    expect(values('Sports Betting')).not.toContain('scam_pump_and_dump');
  });
  it('keeps every reason a distinct code', () => {
    expect(new Set(REPORT_REASONS.map((r) => r.value)).size).toBe(REPORT_REASONS.length);
  });
});
