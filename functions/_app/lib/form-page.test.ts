import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import ContactForm from '../../../src/islands/ContactForm';
import SubmitForm from '../../../src/islands/SubmitForm';
import { fillFormPage } from './form-page';

/** A page around a form, as the build writes one (the island's markup inside an astro-island). */
const page = (form: string) =>
  `<!DOCTYPE html><html lang="en"><head><title>Submit | GuildRank</title></head><body><form class="hero-search" action="/"><input name="search"/></form><astro-island>${form}</astro-island></body></html>`;

const problem = {
  values: {
    server_name: 'Pixel "Raiders" <b>',
    category: 'Trading',
    subcategory: 'Forex Trading',
    server_description: 'Too short </textarea><script>alert(1)</script>',
    invite_link: 'https://example.com/x',
    contact_email: 'owner@example.com',
    // No longer a field of the form (Discord gives the counts): nothing of it is written into the page.
    member_count: '12',
    features: '\nleading newline',
    is_owner: undefined,
    terms: 'true',
    website: 'http://spam.example',
  },
  errors: {
    server_description: 'Description needs at least 20 characters.',
    invite_link: 'Invite link must be a Discord invite, like https://discord.gg/abc123.',
  },
  summary: 'Please check these 2 fields: Description and Invite link.',
};

/** The parts of a filled page the tests look at. */
function inspect(html: string) {
  const tag = (name: string) =>
    new RegExp(`<(?:input|select|textarea)\\b[^>]*\\sname="${name}"[^>]*>`).exec(html)?.[0] ?? '';
  const slot = (name: string) => new RegExp(`<p\\b[^>]*data-error-for="${name}"[^>]*>([^<]*)</p>`).exec(html);
  return { tag, slot };
}

describe('fillFormPage', () => {
  it('puts back what was typed, escaped, in the real submit form markup', () => {
    const html = fillFormPage(page(renderToString(createElement(SubmitForm))), '/api/submissions', problem);
    expect(html).not.toBeNull();
    const { tag } = inspect(html!);
    expect(tag('server_name')).toContain('value="Pixel &quot;Raiders&quot; &lt;b&gt;"');
    expect(tag('invite_link')).toContain('value="https://example.com/x"');
    expect(tag('contact_email')).toContain('value="owner@example.com"');
    expect(html).not.toContain('name="member_count"');
    expect(tag('server_image')).toContain('value=""');
    expect(html).toContain('Too short &lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;</textarea>');
    expect(html).not.toContain('<script>alert(1)');
    // The parser drops one newline after <textarea>: the value's own is kept.
    expect(html).toMatch(/name="features"[^>]*>\n\nleading newline<\/textarea>/);
    expect(html).toMatch(/<option value="Trading" selected="">Trading<\/option>/);
    expect(html).not.toMatch(/<option value="Gaming" selected=""/);
    expect(html).toMatch(/<option value="Forex Trading" selected="">/);
    expect(tag('terms')).toContain('checked=""');
    // An unticked box posts nothing: it comes back unticked (it was ticked on the blank form).
    expect(tag('is_owner')).not.toContain('checked');
    // The honeypot is never written back.
    expect(tag('website')).toContain('value=""');
  });

  it('shows each refused field its message, marks it and focuses the first', () => {
    const html = fillFormPage(page(renderToString(createElement(SubmitForm))), '/api/submissions', problem)!;
    const { tag, slot } = inspect(html);
    expect(slot('server_description')?.[1]).toBe('Description needs at least 20 characters.');
    expect(slot('server_description')?.[0]).not.toContain('hidden');
    expect(slot('invite_link')?.[1]).toBe('Invite link must be a Discord invite, like https://discord.gg/abc123.');
    expect(slot('server_name')?.[0]).toContain('hidden');
    expect(slot('server_name')?.[1]).toBe('');
    expect(tag('server_description')).toContain('aria-invalid="true"');
    expect(tag('server_description')).toContain(
      'aria-describedby="f-server_description-error f-server_description-hint"',
    );
    expect(tag('server_description')).toContain('autofocus=""');
    expect(tag('invite_link')).toContain('aria-describedby="f-invite_link-error f-invite_link-hint"');
    expect(tag('invite_link')).not.toContain('autofocus');
    expect(tag('server_name')).not.toContain('aria-invalid');
  });

  it('shows the summary in the form box with its title, and says Error in the page title', () => {
    const html = fillFormPage(page(renderToString(createElement(SubmitForm))), '/api/submissions', problem)!;
    const alert = /<div[^>]*data-form-alert[^>]*>([\s\S]*?)<\/div>/.exec(html);
    expect(alert?.[0]).not.toMatch(/\shidden/);
    expect(alert?.[1]).toBe(
      '<strong>Submission Error</strong><p class="flush" data-form-alert-text="true">Please check these 2 fields: Description and Invite link.</p>',
    );
    expect(html).toContain('<title>Error: Submit | GuildRank</title>');
  });

  it('fills the contact form and leaves the other forms of the page alone', () => {
    const html = fillFormPage(page(renderToString(createElement(ContactForm))), '/api/contact', {
      values: {
        name: 'Ada',
        email: 'x',
        subject: 'billing',
        priority: 'high',
        message: 'Hello there team',
        search: 'q',
      },
      errors: { email: 'Email must look like name@example.com.' },
      summary: 'Please check the Email field.',
    })!;
    const { tag, slot } = inspect(html);
    expect(tag('name')).toContain('value="Ada"');
    expect(tag('email')).toContain('aria-describedby="c-email-error"');
    expect(slot('email')?.[1]).toBe('Email must look like name@example.com.');
    expect(html).toMatch(/<option value="billing" selected="">/);
    expect(html).toMatch(/<option value="high" selected="">/);
    expect(html).toContain('Hello there team</textarea>');
    expect(html).toContain('<form class="hero-search" action="/"><input name="search"/></form>');
  });

  it('describes a field by the form box when it has no slot of its own (the newsletter box)', () => {
    const box =
      '<form class="newsletter-form" method="post" action="/api/newsletter"><input id="newsletter-email" name="email" type="email" required><button type="submit">Subscribe</button><p id="newsletter-error" class="nl-error" role="alert" hidden data-form-alert data-form-alert-text></p></form>';
    const html = fillFormPage(page(box), '/api/newsletter', {
      values: { email: 'someone@' },
      errors: { email: 'Email address must look like name@example.com.' },
      summary: 'Email address must look like name@example.com.',
    })!;
    expect(html).toContain(
      '<input id="newsletter-email" name="email" type="email" required value="someone@" aria-invalid="true" aria-describedby="newsletter-error" autofocus="">',
    );
    expect(html).toContain(
      '<p id="newsletter-error" class="nl-error" role="alert" data-form-alert data-form-alert-text>Email address must look like name@example.com.</p>',
    );
  });

  it('answers null when the page has no such form', () => {
    expect(fillFormPage(page('<form action="/api/other"></form>'), '/api/contact', problem)).toBeNull();
  });
});
