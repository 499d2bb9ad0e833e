import { type SubmitEvent, useEffect, useRef, useState } from 'react';
import { track } from '~/lib/analytics';
import { errorMessage, postJson } from './form-utils';
import { Honeypot } from './Honeypot';

type State = { kind: 'idle' } | { kind: 'sending' } | { kind: 'thanks' } | { kind: 'error'; message: string };

/** Newsletter signup: a plain POST form that this island sends with fetch instead. */
export default function NewsletterForm() {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [email, setEmail] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Result of a no-JS post, which lands on /?newsletter=<result>#newsletter.
  useEffect(() => {
    const result = new URLSearchParams(location.search).get('newsletter');
    if (result === 'already_subscribed') setState({ kind: 'error', message: 'Email already subscribed' });
    else if (result === 'invalid') setState({ kind: 'error', message: 'Enter a valid email address' });
    else if (result === 'subscribed') setState({ kind: 'thanks' });
    return () => clearTimeout(timer.current);
  }, []);

  useEffect(() => {
    if (state.kind !== 'thanks') return;
    timer.current = setTimeout(() => {
      setEmail('');
      setState({ kind: 'idle' });
    }, 3000);
    return () => clearTimeout(timer.current);
  }, [state.kind]);

  async function onSubmit(e: SubmitEvent<HTMLFormElement>) {
    e.preventDefault();
    const website = String(new FormData(e.currentTarget).get('website') ?? '');
    setState({ kind: 'sending' });
    try {
      const { status, data } = await postJson('/api/newsletter', { email, website });
      if (status === 201 || status === 200) {
        track({ interaction_type: 'signup', target_type: 'newsletter', target_id: 'homepage' });
        setState({ kind: 'thanks' });
      } else if (status === 409) {
        setState({ kind: 'error', message: errorMessage(data) ?? 'Email already subscribed' });
      } else if (status === 400 || status === 429) {
        setState({ kind: 'error', message: errorMessage(data) ?? 'Failed to subscribe. Please try again.' });
      } else {
        setState({ kind: 'error', message: 'Failed to subscribe. Please try again.' });
      }
    } catch {
      setState({ kind: 'error', message: 'Failed to subscribe. Please try again.' });
    }
  }

  if (state.kind === 'thanks') {
    return (
      <div className="newsletter-thanks" role="status">
        <p className="thanks-title">Thanks for subscribing!</p>
        <p>Watch your inbox for this week's premium picks.</p>
      </div>
    );
  }
  return (
    <form className="newsletter-form" method="post" action="/api/newsletter" onSubmit={onSubmit} noValidate={false}>
      <label htmlFor="newsletter-email" className="visually-hidden">
        Email address
      </label>
      <input
        id="newsletter-email"
        name="email"
        type="email"
        required
        autoComplete="email"
        placeholder="you@example.com"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        aria-describedby={state.kind === 'error' ? 'newsletter-error' : undefined}
      />
      <Honeypot />
      <button className="btn btn-light" type="submit" disabled={state.kind === 'sending'}>
        {state.kind === 'sending' ? 'Subscribing…' : 'Subscribe'}
      </button>
      {state.kind === 'error' ? (
        <p id="newsletter-error" className="nl-error" role="alert">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
