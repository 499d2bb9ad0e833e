import { type KeyboardEvent, type PointerEvent, type ReactNode, useEffect, useRef, useState } from 'react';

interface Props {
  /** How many picks there are (one slide each). */
  count: number;
  /** The wide screens' grid: its cards, as built (static HTML). */
  grid?: ReactNode;
  /**
   * The carousel's slides, as built (static HTML): one `.carousel-slide` group per pick, labelled
   * "n of count", the first one shown and the others `aria-hidden` and `inert`.
   */
  slides?: ReactNode;
}

/**
 * Premium Picks: a grid of up to 6 on wide screens, a carousel on small ones (prev/next, dots,
 * wraps at both ends, 500 ms slide, swipe and arrow keys). CSS picks which one shows. The cards
 * are built into the page (no card code is loaded); the island moves the track and marks which
 * slide is shown.
 */
export default function PremiumPicks({ count, grid, slides }: Props) {
  const [index, setIndex] = useState(0);
  const start = useRef<number | null>(null);
  const track = useRef<HTMLDivElement>(null);
  const go = (i: number) => setIndex(((i % count) + count) % count);

  // Only the slide shown can be read or focused; the built page marks the first one so.
  useEffect(() => {
    track.current?.querySelectorAll<HTMLElement>('.carousel-slide').forEach((slide, i) => {
      slide.inert = i !== index;
      slide.setAttribute('aria-hidden', String(i !== index));
    });
  }, [index]);

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
      {/* A box of the island's own: client:visible watches the island's elements, and a slot has none. */}
      <div className="grid premium-grid">{grid}</div>
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
          <div
            ref={track}
            className="carousel-track"
            style={index > 0 ? { transform: `translateX(-${index * 100}%)` } : undefined}
          >
            {slides}
          </div>
        </div>
        <div className="carousel-controls">
          <button type="button" className="icon-btn" aria-label="Previous server" onClick={() => go(index - 1)}>
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
              <path d="M15 6l-6 6 6 6" stroke="currentColor" strokeWidth="2" fill="none" />
            </svg>
          </button>
          <div className="dots">
            {Array.from({ length: count }, (_, i) => (
              <button
                // biome-ignore lint/suspicious/noArrayIndexKey: one dot per slide, in a fixed order
                key={i}
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
