import type { ReactNode } from 'react';

/**
 * A listing browser's filters folded into one "Filters" control on a phone, saying how many are
 * set: a plain <details> (it opens without the script), the home list's bar and every listing
 * page's toolbar alike. From 900 px the summary is hidden and the controls always show (global.css);
 * without JavaScript the fold is not offered, since its controls need the script to filter.
 */
export function FiltersFold({
  setCount,
  className,
  children,
}: {
  /** How many filters differ from the built list (filtersSet). */
  setCount: number;
  /** The fold's place: `filter-bar` on the home, `toolbar-fold` in a listing page's toolbar. */
  className?: string;
  children?: ReactNode;
}) {
  return (
    <details className={className ? `filters-fold ${className}` : 'filters-fold'}>
      <summary>Filters{setCount > 0 ? <span className="filters-count"> ({setCount} set)</span> : null}</summary>
      {children}
    </details>
  );
}
