import { useEffect, useRef, useState } from 'react';

/**
 * A delete button that asks first, inline: "Delete this …? Delete / Keep" takes the button's place
 * as a group (a fieldset whose legend is the question), with the focus on Keep (a second click or Enter does not
 * delete); Keep or Escape puts it away and the focus back on the button. `onDelete` answers
 * whether it deleted: on true the caller has moved the focus on, on false (refused; the caller
 * shows why) the focus returns to the button. The server page's script does the same without
 * React (src/pages/server/_components/confirm-delete.ts).
 */
export function ConfirmDelete({
  label,
  question,
  onDelete,
}: {
  label: string;
  question: string;
  onDelete: () => Promise<boolean>;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  // Where the focus goes on the next render: into the question, back to the button, or nowhere.
  const focusNext = useRef<'keep' | 'trigger' | null>(null);
  useEffect(() => {
    if (focusNext.current === 'keep') keep.current?.focus();
    if (focusNext.current === 'trigger') trigger.current?.focus();
    focusNext.current = null;
  });
  const close = () => {
    focusNext.current = 'trigger';
    setAsking(false);
  };
  if (!asking)
    return (
      <button
        ref={trigger}
        type="button"
        className="btn btn-outline"
        aria-expanded="false"
        onClick={() => {
          focusNext.current = 'keep';
          setAsking(true);
        }}
      >
        {label}
      </button>
    );
  return (
    <fieldset
      className="confirm-delete"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) {
          e.preventDefault();
          close();
        }
      }}
    >
      <legend>{question}</legend>
      <div className="review-actions">
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            const done = await onDelete();
            setBusy(false);
            if (done) setAsking(false);
            else close();
          }}
        >
          Delete
        </button>
        <button ref={keep} type="button" className="btn btn-outline" disabled={busy} onClick={close}>
          Keep
        </button>
      </div>
    </fieldset>
  );
}
