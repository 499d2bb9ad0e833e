import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ORDER_STATES, type OrderState } from '../enums';
import {
  holdsSlot,
  ORDER_EFFECTS,
  ORDER_EVENTS,
  type OrderEffect,
  type OrderEvent,
  removalRefusal,
  transition,
} from './order-machine';

/** Runs `events` from an open order: the final state and every effect in order. */
function run(events: readonly OrderEvent[], from: OrderState = 'open') {
  let state = from;
  const effects: OrderEffect[] = [];
  for (const e of events) {
    const t = transition(state, e);
    state = t.state;
    effects.push(...t.effects);
  }
  return { state, effects };
}
const count = (effects: OrderEffect[], e: OrderEffect) => effects.filter((x) => x === e).length;
const events = fc.array(fc.constantFrom(...ORDER_EVENTS), { maxLength: 12 });

describe('the order machine', () => {
  it('answers every (state, event) pair with a known state and known effects, each at most once', () => {
    for (const s of ORDER_STATES)
      for (const e of ORDER_EVENTS) {
        const t = transition(s, e);
        expect(ORDER_STATES).toContain(t.state);
        for (const x of t.effects) expect(ORDER_EFFECTS).toContain(x);
        expect(new Set(t.effects).size).toBe(t.effects.length);
      }
  });

  it('changes nothing when an event arrives a second time (every state, every event)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ORDER_STATES), fc.constantFrom(...ORDER_EVENTS), (s, e) => {
        const once = transition(s, e);
        // A second partial refund is another refund: it records the charge's new refunded total
        // and mails that step (the same total again changes no amount and mails nothing), and the state stays.
        if (e === 'partially_refunded' && once.state !== 'refunded')
          expect(transition(once.state, e)).toEqual({
            state: once.state,
            effects: ['record_refund', 'mail_partial_refund'],
          });
        else expect(transition(once.state, e)).toEqual({ state: once.state, effects: [] });
      }),
    );
  });

  it('keeps a placement running through partial refunds, mailing each, and ends it on a full one', () => {
    expect(run(['paid', 'partially_refunded', 'partially_refunded'])).toEqual({
      state: 'paid',
      effects: [
        'record_payment',
        'activate',
        'mail_receipt',
        'record_refund',
        'mail_partial_refund',
        'record_refund',
        'mail_partial_refund',
      ],
    });
    expect(run(['paid', 'partially_refunded', 'refunded']).effects.slice(-4)).toEqual([
      'record_refund',
      'deactivate',
      'move_up_next',
      'mail_refund',
    ]);
    expect(transition('ended', 'partially_refunded')).toEqual({
      state: 'ended',
      effects: ['record_refund', 'mail_partial_refund'],
    });
    expect(transition('disputed', 'partially_refunded')).toEqual({
      state: 'disputed',
      effects: ['record_refund', 'mail_partial_refund'],
    });
    // Out of order: a partial refund before the payment's own event is the payment (the charge was made).
    expect(run(['partially_refunded', 'paid'])).toEqual({
      state: 'paid',
      effects: ['record_payment', 'activate', 'mail_receipt', 'record_refund', 'mail_partial_refund'],
    });
    expect(transition('refunded', 'partially_refunded')).toEqual({ state: 'refunded', effects: [] });
  });

  it('activates on payment only from a state without money, and only paid orders hold a slot', () => {
    for (const s of ORDER_STATES)
      for (const e of ORDER_EVENTS) {
        const t = transition(s, e);
        if (t.effects.includes('activate')) {
          expect(['paid', 'partially_refunded']).toContain(e);
          expect(['open', 'expired', 'failed']).toContain(s);
        }
        if (t.effects.includes('deactivate')) expect(s).toBe('paid');
      }
    expect(ORDER_STATES.filter(holdsSlot)).toEqual(['paid']);
  });

  it('in any order of events: money in once, all money out once and never before money in, refunded is final', () => {
    fc.assert(
      fc.property(events, (evs) => {
        const { state, effects } = run(evs);
        expect(count(effects, 'record_payment')).toBeLessThanOrEqual(1);
        // The whole price out (a full refund, a lost dispute) at most once; partial refunds record totals.
        const finals = evs.filter((e) => e !== 'partially_refunded');
        expect(count(run(finals).effects, 'record_refund')).toBeLessThanOrEqual(1);
        const pay = effects.indexOf('record_payment');
        const refund = effects.indexOf('record_refund');
        if (refund >= 0) expect(pay).toBeGreaterThanOrEqual(0);
        if (refund >= 0) expect(pay).toBeLessThan(refund);
        if (evs.includes('refunded') || evs.includes('dispute_lost')) expect(state).toBe('refunded');
        expect(count(effects, 'mail_receipt')).toBeLessThanOrEqual(1);
        // The refund mail goes with the site's refunds, never with a chargeback the bank made.
        const first = evs.find((e) => e === 'refunded' || e === 'dispute_lost');
        expect(count(effects, 'mail_refund')).toBe(first === 'refunded' ? 1 : 0);
        // A partial refund's mail goes with a partial refund only (each step, before the order is refunded).
        expect(count(effects, 'mail_partial_refund')).toBeLessThanOrEqual(count(effects, 'record_refund'));
        if (effects.includes('mail_partial_refund')) expect(evs).toContain('partially_refunded');
      }),
    );
  });

  it('leaves a placement running exactly when the final state is paid, whatever the order of events', () => {
    fc.assert(
      fc.property(events, (evs) => {
        const { state, effects } = run(evs);
        const running = count(effects, 'activate') - count(effects, 'deactivate');
        expect(running).toBe(state === 'paid' ? 1 : 0);
      }),
    );
  });

  it('ends a refund that arrives before the payment refunded, without a slot (the out-of-order case)', () => {
    const r = run(['refunded', 'paid']);
    expect(r.state).toBe('refunded');
    expect(r.effects).not.toContain('activate');
    expect(count(r.effects, 'record_payment')).toBe(1);
    expect(count(r.effects, 'record_refund')).toBe(1);
  });

  it('moves the listing’s next booked terms up only when a refund ends a running or booked term, never on a dispute', () => {
    for (const s of ORDER_STATES)
      for (const e of ORDER_EVENTS) {
        const t = transition(s, e);
        expect(t.effects.includes('move_up_next'), `${s} + ${e}`).toBe(s === 'paid' && e === 'refunded');
        if (t.effects.includes('move_up_next')) expect(t.effects).toContain('deactivate');
      }
  });

  it('takes nothing on an expired checkout, and a dispute suspends a running placement', () => {
    expect(transition('open', 'expired')).toEqual({ state: 'expired', effects: [] });
    expect(transition('paid', 'disputed')).toEqual({ state: 'disputed', effects: ['deactivate'] });
  });

  it('counts a lost dispute as money out once, without a refund mail, whenever it arrives', () => {
    expect(run(['paid', 'disputed', 'dispute_lost'])).toEqual({
      state: 'refunded',
      effects: ['record_payment', 'activate', 'mail_receipt', 'deactivate', 'record_refund'],
    });
    // Closed before the checkout's completion reached the site (events out of order).
    expect(run(['dispute_lost', 'paid']).effects).toEqual(['record_payment', 'record_refund']);
    // A lost dispute after the site refunded changes nothing: the money went out once.
    expect(transition('refunded', 'dispute_lost')).toEqual({ state: 'refunded', effects: [] });
  });
});

describe('removalRefusal', () => {
  it('keeps a listing while a paid order of it is open, paid or disputed, for owners and operators alike; never for a comp or a closed order', () => {
    for (const state of ORDER_STATES)
      for (const by of ['owner', 'operator'] as const) {
        const holds = state === 'open' || state === 'paid' || state === 'disputed';
        expect(removalRefusal([{ state, kind: 'checkout' }], by) !== null, `${state} for ${by}`).toBe(holds);
        expect(removalRefusal([{ state, kind: 'comp' }], by), `a comp ${state}`).toBeNull();
      }
    expect(removalRefusal([], 'owner')).toBeNull();
    // A running placement is what it names first, whatever else the listing has.
    expect(
      removalRefusal(
        [
          { state: 'open', kind: 'checkout' },
          { state: 'paid', kind: 'checkout' },
        ],
        'owner',
      ),
    ).toMatch(/ask for a refund under Placements/);
  });
});
