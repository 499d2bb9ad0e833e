// Cloudflare Turnstile's widget in a public form: a container that its script (TurnstileScript.astro)
// fills with the challenge and a hidden `cf-turnstile-response` field, which the form then sends.
// Rendered by the islands and, statically, by the newsletter box and the report dialog.
import { useEffect, useRef } from 'react';
import { turnstileApi } from '~/lib/turnstile';

/** Nothing is rendered inside: the contents are the script's, and hydration leaves them alone. */
const SCRIPT_OWNED = { __html: '' };

/** The widget's container, or nothing when the site has no Turnstile keys (`siteKey` undefined). */
export function Turnstile({ siteKey }: { siteKey?: string | undefined }) {
  const ref = useRef<HTMLDivElement>(null);
  // The script renders the containers the page has when it loads; one that comes later (the form
  // shown again after "Submit another") is rendered here.
  useEffect(() => {
    const container = ref.current;
    if (container && !container.firstChild) turnstileApi()?.render(container);
  }, []);
  if (!siteKey) return null;
  return (
    <div
      ref={ref}
      className="cf-turnstile"
      data-sitekey={siteKey}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty constant; it keeps React from hydrating the script's contents
      dangerouslySetInnerHTML={SCRIPT_OWNED}
      suppressHydrationWarning
    />
  );
}
