import { describe, expect, it } from 'vitest';
import { countFound, countOf, formatMembers, initials } from './format';

describe('formatMembers', () => {
  it('shows counts under 1,000 as they are', () => {
    expect(formatMembers(0)).toBe('0');
    expect(formatMembers(999)).toBe('999');
  });
  it('abbreviates thousands with K and always one decimal', () => {
    expect(formatMembers(1000)).toBe('1.0K');
    expect(formatMembers(1500)).toBe('1.5K');
    expect(formatMembers(184_300)).toBe('184.3K');
    expect(formatMembers(100_000)).toBe('100.0K');
  });
  it('never shows 1000.0K just under a million', () => {
    expect(formatMembers(999_949)).toBe('999.9K');
    expect(formatMembers(999_950)).toBe('999.9K');
    expect(formatMembers(999_999)).toBe('999.9K');
  });
  it('abbreviates millions with M and always one decimal', () => {
    expect(formatMembers(1_000_000)).toBe('1.0M');
    expect(formatMembers(1_250_000)).toBe('1.2M');
    expect(formatMembers(12_000_000)).toBe('12.0M');
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

describe('countOf', () => {
  it('says 1 server, never 1 servers, and groups thousands', () => {
    expect(countOf(1, 'server')).toBe('1 server');
    expect(countOf(0, 'server')).toBe('0 servers');
    expect(countOf(2, 'saved server')).toBe('2 saved servers');
    expect(countOf(1234, 'server')).toBe('1,234 servers');
    expect(countOf(3, 'category', 'categories')).toBe('3 categories');
  });
});

describe('countFound', () => {
  it('says an exact count as countOf does and a capped search count as "N+"', () => {
    expect(countFound(1, true, 'server')).toBe('1 server');
    expect(countFound(1000, false, 'server')).toBe('1,000+ servers');
    expect(countFound(0, true, 'server')).toBe('0 servers');
  });

  it('says "No servers" for a lower bound of none, never "0+"', () => {
    expect(countFound(0, false, 'server')).toBe('No servers');
  });
});
