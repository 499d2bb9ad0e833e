import { useEffect, useRef, useState } from 'react';

/**
 * The cards' code (ServerCard and what it reads: the claims, plans, icons), loaded when a list
 * first needs it: the cards a listing page or the home opens on are static HTML, so their first
 * load carries the controls alone.
 */
const loadCards = () => import('./ServerCard');
export type Card = Awaited<ReturnType<typeof loadCards>>['ServerCard'];

/**
 * The card component once a list's first answer was asked for (`status` past 'built') and its code
 * arrived; `'failed'` when that load failed (asked for again with the next change of `status`, so a
 * new answer retries it); `null` before.
 */
export function useCardCode(status: 'built' | 'loading' | 'done' | 'error'): Card | 'failed' | null {
  const [card, setCard] = useState<{ Card: Card } | 'failed' | null>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (status === 'built' || asked.current) return;
    asked.current = true;
    loadCards().then(
      ({ ServerCard }) => setCard({ Card: ServerCard }),
      () => {
        asked.current = false;
        setCard('failed');
      },
    );
  }, [status]);
  return card === null || card === 'failed' ? card : card.Card;
}
