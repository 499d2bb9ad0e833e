import { describe, expect, it } from 'vitest';
import { mailPreviewSrc } from './OutboxScreen';

describe('mailPreviewSrc', () => {
  it('loads a mail’s HTML part from the admin route that serves it with its own policy, not inline in the console', () => {
    expect(mailPreviewSrc(42)).toBe('/api/admin/mail/42/preview');
  });
});
