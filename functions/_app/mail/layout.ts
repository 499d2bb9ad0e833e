import type { RenderedMail } from '../../../db/queries/mail';
import { escapeHtml } from '../lib/html';

/** Who sends: the site's name, its public address and the support address every mail shows. */
export interface MailSite {
  name: string;
  /** The public origin, e.g. https://guildrank.example (no trailing slash). */
  url: string;
  supportEmail: string;
}

/** One part of a mail's body, rendered the same in the text and the HTML part. */
export type MailBlock =
  | { kind: 'p'; text: string }
  /** A link on its own line: a button in HTML, `label: url` in text. */
  | { kind: 'link'; label: string; href: string }
  /** Words quoted from a person (an operator's note, a visitor's message). */
  | { kind: 'quote'; text: string }
  | { kind: 'list'; items: { text: string; href?: string | undefined }[] };

/** What every template gives the layout. */
export interface MailContent {
  subject: string;
  /** The first line: a greeting or what the mail is about. */
  heading: string;
  blocks: MailBlock[];
  /** Newsletter mails: the recipient's one-click unsubscribe link, repeated in the footer. */
  unsubscribeUrl?: string | undefined;
}

/** The site's address without the scheme, as a footer shows it. */
const bare = (url: string) => url.replace(/^https?:\/\//, '');

function textOf(block: MailBlock): string {
  switch (block.kind) {
    case 'p':
      return block.text;
    case 'link':
      return `${block.label}: ${block.href}`;
    case 'quote':
      return block.text
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    case 'list':
      return block.items.map((i) => `- ${i.text}${i.href ? `\n  ${i.href}` : ''}`).join('\n');
  }
}

function htmlOf(block: MailBlock): string {
  switch (block.kind) {
    case 'p':
      return `<p>${escapeHtml(block.text)}</p>`;
    case 'link':
      return `<p><a href="${escapeHtml(block.href)}" style="display:inline-block;padding:10px 16px;background:#4f46e5;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(block.label)}</a></p>`;
    case 'quote':
      return `<blockquote style="margin:0 0 16px;padding:8px 12px;border-left:3px solid #c7c7d1;white-space:pre-wrap">${escapeHtml(block.text)}</blockquote>`;
    case 'list':
      return `<ul>${block.items.map((i) => `<li>${i.href ? `<a href="${escapeHtml(i.href)}">${escapeHtml(i.text)}</a>` : escapeHtml(i.text)}</li>`).join('')}</ul>`;
  }
}

/**
 * A mail's two parts from one content: the plain text and the HTML (every value escaped), both
 * ending with the site's name and address and the support address, and the unsubscribe link for
 * newsletter mails. No images, no tracking pixels, no tracked links: each link is the page itself.
 */
export function renderMail(site: MailSite, content: MailContent): RenderedMail {
  const footer = [`${site.name}, ${site.url}`, `Questions: ${site.supportEmail}`];
  const unsubscribe = content.unsubscribeUrl
    ? `You get this because you subscribed to the ${site.name} newsletter. Unsubscribe with one click: ${content.unsubscribeUrl}`
    : undefined;
  const text = [
    content.heading,
    '',
    ...content.blocks.flatMap((b) => [textOf(b), '']),
    '--',
    ...footer,
    ...(unsubscribe ? ['', unsubscribe] : []),
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f6f6f9;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f1f29;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#ffffff;padding:24px;border-radius:8px">
<p style="font-weight:600;font-size:18px">${escapeHtml(content.heading)}</p>
${content.blocks.map(htmlOf).join('\n')}
<hr style="border:0;border-top:1px solid #e2e2ea;margin:24px 0">
<p style="font-size:13px;color:#55556a">${escapeHtml(site.name)}, <a href="${escapeHtml(site.url)}">${escapeHtml(bare(site.url))}</a><br>Questions: <a href="mailto:${escapeHtml(site.supportEmail)}">${escapeHtml(site.supportEmail)}</a></p>
${content.unsubscribeUrl ? `<p style="font-size:13px;color:#55556a">You get this because you subscribed to the ${escapeHtml(site.name)} newsletter. <a href="${escapeHtml(content.unsubscribeUrl)}">Unsubscribe</a> with one click.</p>` : ''}
</div>
</body></html>
`;
  return { subject: content.subject, text, html };
}

/** The RFC 8058 headers of every newsletter mail: the one-click unsubscribe URL and its POST. */
export function newsletterHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/**
 * A moderator's decision in a mail (#32): the reasons picked as a list, then the moderator's note
 * quoted, or `withoutNote` when they left none (nothing when that is undefined).
 */
export function decisionBlocks(reasons: readonly string[], note: string | null, withoutNote?: string): MailBlock[] {
  const said = note?.trim();
  return [
    { kind: 'p', text: reasons.length === 1 ? 'The reason:' : 'The reasons:' },
    { kind: 'list', items: reasons.map((text) => ({ text })) },
    ...(said
      ? ([
          { kind: 'p', text: 'The moderator wrote:' },
          { kind: 'quote', text: said },
        ] as const)
      : withoutNote
        ? ([{ kind: 'p', text: withoutNote }] as const)
        : []),
  ];
}
