import { useEffect, useRef, useState } from 'react';

/**
 * The cards' code (ServerCard and what it reads: the claims, plans, icons), loaded when a list
 * first needs it: the cards a listing page or the home opens on are static HTML, so their first
 * load carries the controls alone.
 */
const loadCards = () => import('./ServerCard');
export type Card = Awaited<ReturnType<typeof loadCards>>['ServerCard'];

/**
 * The card component once `wanted` turned true and its code arrived; `'failed'` when that load
 * failed (asked for again the next time `wanted` turns true, or with the next `attempt`); `null`
 * before. Pass the answer being waited for as `attempt`, so a new answer retries a failed load.
 */
export function useCardCode(wanted: boolean, attempt?: unknown): Card | 'failed' | null {
  const [card, setCard] = useState<{ Card: Card } | 'failed' | null>(null);
  const asked = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` only retries a failed load
  useEffect(() => {
    if (!wanted || asked.current) return;
    asked.current = true;
    loadCards().then(
      ({ ServerCard }) => setCard({ Card: ServerCard }),
      () => {
        asked.current = false;
        setCard('failed');
      },
    );
  }, [wanted, attempt]);
  return card === null || card === 'failed' ? card : card.Card;
}
