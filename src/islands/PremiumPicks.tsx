import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import type { CardServer } from './card-data';
import { ServerCard } from './ServerCard';

interface Props {
  servers: CardServer[];
}

/**
 * Premium Picks: a grid of up to 6 on wide screens, a carousel on small ones (prev/next, dots,
 * wraps at both ends, 500 ms slide, swipe and arrow keys). CSS picks which one shows.
 */
export default function PremiumPicks({ servers }: Props) {
  const [index, setIndex] = useState(0);
  const start = useRef<number | null>(null);
  const count = servers.length;
  const go = (i: number) => setIndex(((i % count) + count) % count);

  function onKey(e: KeyboardEvent) {
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(index + 1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(index - 1);
    }
  }
  function onPointerDown(e: PointerEvent) {
    start.current = e.clientX;
  }
  function onPointerUp(e: PointerEvent) {
    if (start.current === null) return;
    const dx = e.clientX - start.current;
    start.current = null;
    if (Math.abs(dx) > 40) go(dx < 0 ? index + 1 : index - 1);
  }

  return (
    <>
      <div className="grid premium-grid">
        {servers.map((s) => (
          <ServerCard key={s.id} server={s} />
        ))}
      </div>
      <section
        className="carousel"
        aria-roledescription="carousel"
        aria-label="Premium picks carousel"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the region takes focus so arrow keys slide it
        tabIndex={0}
        onKeyDown={onKey}
      >
        <div
          className="carousel-viewport"
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => {
            start.current = null;
          }}
        >
          {/* No style on the first slide: the server-rendered HTML then carries no style attribute, which
              the CSP refuses; React sets the transform through the DOM (allowed) once it moves. */}
          <div className="carousel-track" style={index > 0 ? { transform: `translateX(-${index * 100}%)` } : undefined}>
            {servers.map((s, i) => (
              // biome-ignore lint/a11y/useSemanticElements: slides of an ARIA carousel are groups
              <div
                key={s.id}
                className="carousel-slide"
                role="group"
                aria-roledescription="slide"
                aria-label={`${i + 1} of ${count}`}
                aria-hidden={i !== index}
                inert={i !== index}
              >
                <ServerCard server={s} />
              </div>
            ))}
          </div>
        </div>
        <div className="carousel-controls">
          <button type="button" className="icon-btn" aria-label="Previous server" onClick={() => go(index - 1)}>
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M15 6l-6 6 6 6" stroke="currentColor" strokeWidth="2" fill="none" />
            </svg>
          </button>
          <div className="dots">
            {servers.map((s, i) => (
              <button
                key={s.id}
                type="button"
                className="dot"
                aria-label={`Go to slide ${i + 1}`}
                aria-current={i === index ? 'true' : undefined}
                onClick={() => go(i)}
              />
            ))}
          </div>
          <button type="button" className="icon-btn" aria-label="Next server" onClick={() => go(index + 1)}>
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M9 6l6 6-6 6" stroke="currentColor" strokeWidth="2" fill="none" />
            </svg>
          </button>
        </div>
        <p className="visually-hidden" aria-live="polite">
          Slide {index + 1} of {count}
        </p>
      </section>
    </>
  );
}
