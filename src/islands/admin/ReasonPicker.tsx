import { MODERATION_REASONS, type ModerationReason } from '~/lib/moderation/reasons';
import { DEFAULT_MIN_MEMBERS, REQUIREMENT_IDS, type RequirementId, requirementById } from '~/lib/requirements';

/** The reasons a moderator picks for a rejection or a hide (#32), and the requirement one names. */
export interface PickedReasons {
  reasons: ModerationReason[];
  requirement: RequirementId | '';
}

export const NO_REASONS: PickedReasons = { reasons: [], requirement: '' };

/** The reasons as the API takes them: "does not meet a requirement" with its requirement. */
export const reasonsBody = (picked: PickedReasons) => ({
  reasons: picked.reasons,
  ...(picked.reasons.includes('requirement') && picked.requirement ? { requirement: picked.requirement } : {}),
});

/**
 * The fixed list of reasons as checkboxes, and which requirement when "Does not meet a requirement"
 * is ticked; the decision's mail states them with the appeal link.
 */
export function ReasonPicker({
  legend,
  value,
  onChange,
}: {
  legend: string;
  value: PickedReasons;
  onChange: (value: PickedReasons) => void;
}) {
  const toggle = (reason: ModerationReason, on: boolean) =>
    onChange({
      ...value,
      reasons: on ? [...value.reasons, reason] : value.reasons.filter((r) => r !== reason),
    });
  return (
    <fieldset className="reasons">
      <legend>{legend}</legend>
      {MODERATION_REASONS.map((r) => (
        <label key={r.value} className="check">
          <input
            type="checkbox"
            checked={value.reasons.includes(r.value)}
            onChange={(e) => toggle(r.value, e.target.checked)}
          />{' '}
          {r.label}
        </label>
      ))}
      {value.reasons.includes('requirement') && (
        <label>
          Which requirement
          <select
            value={value.requirement}
            onChange={(e) =>
              onChange({ ...value, requirement: REQUIREMENT_IDS.find((id) => id === e.target.value) ?? '' })
            }
          >
            <option value="">Choose…</option>
            {REQUIREMENT_IDS.map((id) => (
              <option key={id} value={id}>
                {requirementById(id, DEFAULT_MIN_MEMBERS).title.replace(/\d[\d,]*/, 'N')}
              </option>
            ))}
          </select>
        </label>
      )}
    </fieldset>
  );
}
