import { useEffect, useRef, useState } from 'react';
import { COPIED_MS } from '~/lib/timings';

/** One snippet to copy: a read-only field (selectable without JavaScript) and a copy button. */
function Snippet({ id, label, code }: { id: string; label: string; code: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      // No clipboard (permissions, an old browser): the field stays there to select by hand.
      document.getElementById(id)?.focus();
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} readOnly rows={3} value={code} onFocus={(e) => e.currentTarget.select()} />
      <p>
        <button type="button" className="btn btn-outline" onClick={() => void copy()}>
          Copy
        </button>{' '}
        <span role="status">{copied ? 'Copied' : ''}</span>
      </p>
    </div>
  );
}

/**
 * A listing's badge and embeddable card (#33) with the Markdown and HTML to put them on the owner's
 * own site: the badge previewed as an image, the card opened in a new tab (this page's policy
 * frames nothing of its own). Both show live numbers, or "unavailable" while the listing is hidden
 * or its invite is dead.
 */
export function ListingEmbeds({ id, name, slug }: { id: number; name: string; slug: string }) {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const page = `${origin}/server/${slug}`;
  const badge = `${origin}/badge/${slug}.svg`;
  const card = `${origin}/embed/${slug}`;
  const title = `${name} on GuildRank`.replace(/"/g, '&quot;');
  return (
    <details className="account-section">
      <summary>Badge and card for your site</summary>
      <p>
        <img src={`/badge/${slug}.svg`} alt={`The GuildRank badge of ${name}`} height={20} />
      </p>
      <p className="muted">
        Live numbers, refreshed every 10 minutes. Add <code>?variant=members</code>, <code>online</code>,{' '}
        <code>rank</code> or <code>rating</code>, and <code>&amp;style=dark</code> for dark pages.
      </p>
      <Snippet id={`badge-md-${id}`} label="Badge, Markdown (a README)" code={`[![GuildRank](${badge})](${page})`} />
      <Snippet
        id={`badge-html-${id}`}
        label="Badge, HTML"
        code={`<a href="${page}"><img src="${badge}" alt="${title}" height="20"></a>`}
      />
      <p>
        <a href={`/embed/${slug}`} target="_blank" rel="noopener">
          Preview the card<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
      <Snippet
        id={`card-html-${id}`}
        label="Card, HTML"
        code={`<iframe src="${card}" title="${title}" width="320" height="200" style="border:0" loading="lazy"></iframe>`}
      />
      <Snippet id={`card-md-${id}`} label="Card, Markdown (a link to it)" code={`[${name} on GuildRank](${card})`} />
      <p className="muted">
        More on the <a href="/developers#badges-title">developers page</a>.
      </p>
    </details>
  );
}
