// The server page's review form (#31) as HTML: a plain `<form method="post">` to the review route,
// so writing and editing a review work without JavaScript (the route answers a form post with a
// redirect to the author's view of the page, or the page filled in with what was typed and why it
// was refused: functions/_app/lib/form-page.ts). The fields are the islands' Field component,
// rendered once per build (as report-fields.ts does), since they are the same on every page; the
// page's script (server-reviews.ts) sends the same form as JSON once it runs, reading what was typed.
import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Field } from '~/islands/Field';
import { FormAlert } from '~/islands/form-utils';
import { reviewFormAction } from '~/lib/reviews/form';
import { REVIEW_LABELS } from '~/lib/schemas/review';

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(5 - n);

let fields: string | undefined;

/** The alert box and the three fields (React escapes every text and attribute), rendered on first use. */
function fieldsHtml(): string {
  fields ??= renderToStaticMarkup(
    createElement(
      Fragment,
      null,
      createElement(FormAlert, { text: '' }),
      createElement(
        Field,
        { idPrefix: 'review', name: 'rating', label: REVIEW_LABELS.rating, need: 'required', as: 'select' },
        ...[5, 4, 3, 2, 1].map((n) => createElement('option', { key: n, value: String(n) }, `${stars(n)} (${n} of 5)`)),
      ),
      createElement(Field, {
        idPrefix: 'review',
        name: 'body',
        label: `${REVIEW_LABELS.body} (20 to 2,000 characters)`,
        need: 'required',
        as: 'textarea',
        rows: 5,
        minLength: 20,
        maxLength: 2000,
      }),
      createElement(Field, {
        idPrefix: 'review',
        name: 'display_name',
        label: REVIEW_LABELS.display_name,
        need: 'optional',
        maxLength: 80,
        autoComplete: 'nickname',
        hint: 'Left empty: your Discord display name.',
      }),
    ),
  );
  return fields;
}

/** The review form of the listing `serverId`: it posts to the review route as a plain form. */
export function reviewFormHtml(serverId: number): string {
  return `<form method="post" action="${reviewFormAction(serverId)}" class="form review-form" aria-label="Write a review" data-review-form>${fieldsHtml()}<div class="review-actions"><button type="submit" class="btn btn-primary" data-review-send>Publish review</button></div></form>`;
}
