import { useState } from 'react';
import { NO_REASONS, type PickedReasons, ReasonPicker, reasonsBody } from './ReasonPicker';
import { ReviewPanel } from './ReviewPanel';

/** What hiding a listing sends (#32): the reasons its owner is mailed, and the note. */
export type HideDecision = ReturnType<typeof reasonsBody> & { note?: string };

/**
 * What a hide's notice says when nobody was mailed: the mail goes to the contact address of the
 * submission the listing was approved from, and a listing added in the console has none.
 */
export const NO_CONTACT = 'no contact address is on record for it, so nobody is mailed';

/**
 * Asks before a live listing is hidden (#32), wherever a moderator hides one (the Servers screen's
 * Visible box, a report's Hide server): the reasons its owner is mailed with the appeal link
 * (`initial` ticked to start with), a note, then Hide listing, which needs a reason.
 */
export function HideListingPanel({
  id,
  level,
  name,
  initial = NO_REASONS,
  busy,
  onHide,
  onClose,
}: {
  /** The heading's id, which names the panel. */
  id: string;
  level: 2 | 3;
  name: string;
  initial?: PickedReasons;
  busy: boolean;
  onHide: (decision: HideDecision) => void;
  onClose: () => void;
}) {
  const [picked, setPicked] = useState<PickedReasons>(initial);
  const [note, setNote] = useState('');
  return (
    <ReviewPanel
      id={id}
      level={level}
      title={`Hide ${name}`}
      status="active"
      notes={{ label: 'Note to the owner (optional)', value: note, rows: 2, onChange: setNote }}
      decisions={
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy || picked.reasons.length === 0}
          onClick={() => onHide({ ...reasonsBody(picked), ...(note ? { note } : {}) })}
        >
          Hide listing
        </button>
      }
      onClose={onClose}
    >
      <ReasonPicker legend="Reasons (the owner is mailed them)" value={picked} onChange={setPicked} />
    </ReviewPanel>
  );
}
