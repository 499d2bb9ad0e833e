import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './api-harness';

let t: TestApp;
afterEach(() => t?.cleanup());

describe('how the app routes public requests', () => {
  it('still answers 405 with Allow, and 404 JSON, from the not-found handler', async () => {
    t = await createTestApp();
    const wrongMethod = await t.app.request('/api/events');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    const unknown = await t.app.request('/api/events/extra', { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const deleted = await t.app.request('/api/newsletter/unsubscribe', { method: 'DELETE' });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });
});
