import { describe, expect, it } from 'vitest';
import { DISPATCH_EVENT_TYPE, hookRequest } from './rebuild-hook';

describe('hookRequest', () => {
  it('sends a CI trigger URL the reason, with the token when there is one', () => {
    expect(hookRequest('https://ci.example/hooks/abc', 'approved a', undefined)).toEqual({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'approved a' }),
    });
    expect(hookRequest('https://ci.example/hooks/abc', 'x', 'tok').headers.authorization).toBe('Bearer tok');
  });

  it("sends GitHub's repository dispatch endpoint the event the deploy workflow runs on, as GitHub documents it", () => {
    const { headers, body } = hookRequest(
      'https://api.github.com/repos/acme/guildrank/dispatches',
      'edited b',
      'ghp_x',
    );
    expect(headers).toMatchObject({
      authorization: 'Bearer ghp_x',
      accept: 'application/vnd.github+json',
      'user-agent': expect.any(String),
    });
    expect(JSON.parse(body)).toEqual({ event_type: DISPATCH_EVENT_TYPE, client_payload: { reason: 'edited b' } });
    expect(
      JSON.parse(hookRequest('https://api.github.com/repos/a/b/dispatches', 'r'.repeat(5000), 't').body).client_payload
        .reason,
    ).toHaveLength(1000);
  });
});
