import { describe, expect, it } from 'vitest';
import { formatMembers, initials } from './format';

describe('formatMembers', () => {
  it('shows counts under 1,000 as they are', () => {
    expect(formatMembers(0)).toBe('0');
    expect(formatMembers(999)).toBe('999');
  });
  it('abbreviates thousands with K and one decimal', () => {
    expect(formatMembers(1000)).toBe('1K');
    expect(formatMembers(1500)).toBe('1.5K');
    expect(formatMembers(184_300)).toBe('184.3K');
    expect(formatMembers(999_999)).toBe('999.9K');
  });
  it('abbreviates millions with M and one decimal', () => {
    expect(formatMembers(1_000_000)).toBe('1M');
    expect(formatMembers(1_250_000)).toBe('1.2M');
  });
  it('treats bad input as zero', () => {
    expect(formatMembers(Number.NaN)).toBe('0');
    expect(formatMembers(-5)).toBe('0');
  });
});

describe('initials', () => {
  it('takes the first letters of the first two words', () => {
    expect(initials('Apex Legends Hub')).toBe('AL');
    expect(initials('solo')).toBe('S');
    expect(initials('  ')).toBe('?');
  });
});
