import type { ReactNode } from 'react';
import { Badge } from './ui';

/**
 * The panel an operator reviews one item in (a submission, an owner's edit): its heading with the
 * status badge, what to judge (`children`), the notes stored with the decision, and one row of
 * buttons, the decisions (`decisions`, none once decided) then Close.
 */
export function ReviewPanel({
  id,
  level,
  title,
  status,
  notes,
  decisions,
  onClose,
  children,
}: {
  /** The heading's id, which names the panel. */
  id: string;
  /** The heading's level where the panel stands (2 on its own screen, 3 inside a section). */
  level: 2 | 3;
  title: ReactNode;
  status: string;
  /** The notes field, when the item can still take them. */
  notes?: { label: string; value: string; rows: number; onChange: (value: string) => void } | undefined;
  decisions?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <article className="card detail" aria-labelledby={id}>
      <Heading id={id}>
        {title} <Badge value={status} />
      </Heading>
      {children}
      {notes && (
        <label>
          {notes.label}
          <textarea
            rows={notes.rows}
            value={notes.value}
            onChange={(e) => notes.onChange(e.target.value)}
            maxLength={2000}
          />
        </label>
      )}
      <div className="actions">
        {decisions}
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
    </article>
  );
}
