import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { subscribeEmail } from '../../db/queries/newsletter';
import ContactForm from '../../src/islands/ContactForm';
import SubmitForm from '../../src/islands/SubmitForm';
import { countRows, createTestApp, ORIGIN, postForm, postJson, type TestApp } from './api-harness';

// A refused form post from a browser without JavaScript is answered with the form's own page,
// filled in (issue #13 item 5): the built pages stand in as the islands render them.

const shell = (title: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><title>${title}</title></head><body><main>${body}</main></body></html>`;
const PAGES: Record<string, string> = {
  '/submit-server': shell('Submit', `<astro-island>${renderToString(createElement(SubmitForm))}</astro-island>`),
  '/contact': shell('Contact', `<astro-island>${renderToString(createElement(ContactForm))}</astro-island>`),
  '/': shell(
    'Home',
    '<form method="post" action="/api/newsletter"><input id="newsletter-email" name="email" type="email"><p id="newsletter-error" class="nl-error" role="alert" hidden data-form-alert data-form-alert-text></p></form>',
  ),
};
const sitePage = async (path: string) => PAGES[path] ?? null;

let t: TestApp;
afterEach(() => t?.cleanup());

const slot = (html: string, name: string) =>
  new RegExp(`<p\\b[^>]*data-error-for="${name}"[^>]*>([^<]*)</p>`).exec(html)?.[1];

describe('a refused form post without JavaScript', () => {
  it('gets the submit page back with what was typed, each message and the summary (400, not stored, not cached)', async () => {
    t = await createTestApp({}, { sitePage });
    const res = await postForm(t.app, '/api/submissions', {
      server_name: 'Pixel Raiders',
      category: 'Gaming',
      server_description: 'Too short',
      invite_link: 'https://example.com/x',
      server_image: 'https://example.com/icon.png',
      member_count: '10',
      active_users: '2',
      submitter_name: 'Ada',
      contact_email: 'nope',
      terms: 'true',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('value="Pixel Raiders"');
    expect(html).toContain('Too short</textarea>');
    expect(slot(html, 'server_description')).toBe('Description needs at least 20 characters.');
    expect(slot(html, 'invite_link')).toBe('Invite link must be a Discord invite, like https://discord.gg/abc123.');
    expect(slot(html, 'contact_email')).toBe('Contact email must look like name@example.com.');
    expect(slot(html, 'server_name')).toBe('');
    expect(html).toContain('Please check these 3 fields: Description, Invite link and Contact email.');
    expect(html).not.toMatch(/server_description,|Invalid /);
    expect(await countRows(t.client, 'server_submissions')).toBe(0);
  });

  it('gets the contact page back the same way', async () => {
    t = await createTestApp({}, { sitePage });
    const res = await postForm(t.app, '/api/contact', { name: 'Ada', email: 'x', subject: 'billing', message: 'Hi' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('value="Ada"');
    expect(html).toMatch(/<option value="billing" selected="">/);
    expect(slot(html, 'email')).toBe('Email must look like name@example.com.');
    expect(slot(html, 'message')).toBe('Message needs at least 10 characters.');
    expect(html).toContain('Please check these 2 fields: Email and Message.');
    expect(await countRows(t.client, 'contact_messages')).toBe(0);
  });

  it('gets the home page back with the newsletter box saying why, for a bad and a taken address', async () => {
    t = await createTestApp({}, { sitePage });
    const bad = await postForm(t.app, '/api/newsletter', { email: 'someone@' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(
      'data-form-alert data-form-alert-text>Email address must look like name@example.com.</p>',
    );
    // A confirmed subscriber (a pending one signing up again gets the confirmation again, #16).
    await subscribeEmail(t.db, 'taken@example.com');
    const taken = await postForm(t.app, '/api/newsletter', { email: 'taken@example.com' });
    expect(taken.status).toBe(409);
    const html = await taken.text();
    expect(html).toContain('value="taken@example.com"');
    expect(html).toContain('data-form-alert data-form-alert-text>Email already subscribed</p>');
    expect(await countRows(t.client, 'newsletter_subscribers')).toBe(1);
  });

  it('past the rate limit gets the page with the wait message and its values back', async () => {
    t = await createTestApp({}, { sitePage });
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) {
      last = await postForm(t.app, '/api/contact', { name: 'Ada', email: 'x', message: 'Hello there, team' });
    }
    expect(last?.status).toBe(429);
    const html = await last!.text();
    expect(html).toContain('Too many requests. Please wait a moment and try again.');
    expect(html).toContain('Hello there, team</textarea>');
  });

  it('keeps the plain answers where a page would not help: JSON callers, another site, no built page', async () => {
    t = await createTestApp({}, { sitePage });
    const json = await postJson(t.app, '/api/submissions', { server_name: 'x' });
    expect(json.status).toBe(400);
    const body = (await json.json()) as { error: { message: string; issues: { path: string }[] } };
    expect(body.error.message).toMatch(/^Please check these \d+ fields: Server name, Description, /);
    expect(body.error.issues.map((i) => i.path)).toContain('server_description');
    const forged = await postForm(t.app, '/api/contact', { name: 'x' }, { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('content-type')).toMatch(/json/);
    t.cleanup();
    t = await createTestApp();
    const redirected = await postForm(t.app, '/api/contact', { name: 'Ada', email: 'x', message: 'Hello there' });
    expect(redirected.status).toBe(303);
    expect(new URL(redirected.headers.get('location') ?? '', ORIGIN).searchParams.get('fields')).toBe('email');
  });
});
