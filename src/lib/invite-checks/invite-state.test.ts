import { describe, expect, it } from 'vitest';
import { INVITE_STATUSES } from '../enums';
import { inviteView, PAUSED_NOTICE, STOPPED_NOTICE } from './invite-state';

describe('inviteView', () => {
  it('replaces Join with the stopped notice for a suspect invite, and noindexes a dead one', () => {
    expect(inviteView('suspect')).toEqual({ join: false, notice: STOPPED_NOTICE, noindex: false });
    expect(inviteView('dead')).toEqual({ join: false, notice: STOPPED_NOTICE, noindex: true });
  });
  it('replaces Join with the paused notice for paused invites', () => {
    expect(inviteView('paused')).toEqual({ join: false, notice: PAUSED_NOTICE, noindex: false });
  });
  it('keeps Join for an expiring invite and says it expires', () => {
    const view = inviteView('expiring');
    expect(view.join).toBe(true);
    expect(view.notice).toMatch(/expires/);
  });
  it('keeps Join without a notice for unchecked and working invites', () => {
    for (const status of ['unchecked', 'ok', null, undefined] as const) {
      expect(inviteView(status)).toEqual({ join: true, notice: null, noindex: false });
    }
  });
  it('answers every status', () => {
    for (const status of INVITE_STATUSES) expect(typeof inviteView(status).join).toBe('boolean');
  });
});
