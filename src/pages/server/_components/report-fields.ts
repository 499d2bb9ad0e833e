// The report dialog's fields besides the reasons (details, the Turnstile widget, the honeypot) as
// HTML: the islands' own components, rendered once per build instead of once per server page,
// because they are the same on every page and server pages are nearly every page of a build.
import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { turnstileSiteKey } from '~/data/turnstile';
import { Field } from '~/islands/Field';
import { Honeypot } from '~/islands/Honeypot';
import { Turnstile } from '~/islands/Turnstile';
import { REPORT_LABELS } from '~/lib/schemas/labels';

let html: string | undefined;

/** The fields' HTML (React escapes every text and attribute), rendered on first use. */
export function reportFieldsHtml(): string {
  html ??= renderToStaticMarkup(
    createElement(
      Fragment,
      null,
      createElement(Field, {
        idPrefix: 'report',
        name: 'details',
        label: REPORT_LABELS.details,
        need: 'optional',
        as: 'textarea',
        maxLength: 1000,
      }),
      createElement(Turnstile, { siteKey: turnstileSiteKey() }),
      createElement(Honeypot),
    ),
  );
  return html;
}
