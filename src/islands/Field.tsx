// One form field, said once for every public form: the submit and contact islands render it, and
// the newsletter box and the report dialog render it statically from Astro (plain HTML, no
// JavaScript shipped). Its markup is what functions/_app/lib/form-page.ts fills in after a refused
// post without JavaScript: the control carries `name` and the id `<idPrefix>-<name>`, its message
// goes in the empty `[data-error-for]` slot, hidden while the field is fine.
import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

interface FieldOwn {
  /** The control's name. */
  name: string;
  /** One per form ('f', 'c', 'newsletter', 'report'): the control's id is `<idPrefix>-<name>`. */
  idPrefix: string;
  /** The label's words (the star or "(optional)" is added from `need`). */
  label: ReactNode;
  /**
   * 'required': a star after the label, and `required` on an input or textarea (not on a select:
   * one always has a value chosen, and a required select must start with an empty option).
   * 'optional': "(optional)" after the label.
   */
  need?: 'required' | 'optional';
  /** A line under the control that describes it. */
  hint?: ReactNode;
  /** The field's message; empty keeps its slot empty and hidden. */
  error?: string | undefined;
  /** The wrapper's class (default `field`). */
  className?: string;
  /** The label is for assistive technology only (the newsletter box: its placeholder and button say the rest). */
  hideLabel?: boolean;
  /** The message slot is the form's alert too: a one-field form, whose summary is that field's message. */
  alert?: boolean;
}

/** Attributes of the control itself: everything but what the field sets. */
type ControlAttributes<A> = Omit<A, keyof FieldOwn | 'id' | 'aria-invalid' | 'aria-describedby'>;

type InputField = FieldOwn & { as?: 'input'; ref?: Ref<HTMLInputElement> } & ControlAttributes<
    InputHTMLAttributes<HTMLInputElement>
  >;
type TextareaField = FieldOwn & { as: 'textarea'; ref?: Ref<HTMLTextAreaElement> } & ControlAttributes<
    TextareaHTMLAttributes<HTMLTextAreaElement>
  >;
type SelectField = FieldOwn & { as: 'select'; ref?: Ref<HTMLSelectElement> } & ControlAttributes<
    SelectHTMLAttributes<HTMLSelectElement>
  >;
export type FieldProps = InputField | TextareaField | SelectField;

const OWN = new Set<string>([
  'as',
  'name',
  'idPrefix',
  'label',
  'need',
  'hint',
  'error',
  'className',
  'hideLabel',
  'alert',
] satisfies (keyof FieldOwn | 'as')[]);

/** The props meant for the control: the field's own taken out. */
const controlAttributes = (props: FieldProps) => Object.fromEntries(Object.entries(props).filter(([k]) => !OWN.has(k)));

/** The ids of a field's control, hint and message slot. */
export const fieldIds = (idPrefix: string, name: string) => {
  const id = `${idPrefix}-${name}`;
  return { id, hint: `${id}-hint`, error: `${id}-error` };
};

/** A labelled control with its hint and message slot; the control is described by both. */
export function Field(props: FieldProps) {
  const { name, idPrefix, label, need, hint, error, className = 'field', hideLabel, alert } = props;
  const ids = fieldIds(idPrefix, name);
  const wiring = {
    ...controlAttributes(props),
    id: ids.id,
    name,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [error ? ids.error : '', hint ? ids.hint : ''].filter(Boolean).join(' ') || undefined,
  };
  const required = need === 'required' && props.as !== 'select' ? true : undefined;
  return (
    <div className={className}>
      <label htmlFor={ids.id} className={hideLabel ? 'visually-hidden' : undefined}>
        {label}
        {need === 'required' ? (
          <>
            {' '}
            <span className="req">*</span>
          </>
        ) : need === 'optional' ? (
          ' (optional)'
        ) : null}
      </label>
      {props.as === 'textarea' ? (
        <textarea required={required} {...wiring} />
      ) : props.as === 'select' ? (
        <select {...wiring} />
      ) : (
        <input type="text" required={required} {...wiring} />
      )}
      {hint ? (
        <p id={ids.hint} className="hint">
          {hint}
        </p>
      ) : null}
      <MessageSlot id={ids.error} name={name} text={error} alert={alert} />
    </div>
  );
}

/** A field's message slot: empty and hidden while the field is fine. */
function MessageSlot({
  id,
  name,
  text,
  alert,
}: {
  id: string;
  name: string;
  text?: string | undefined;
  alert?: boolean | undefined;
}) {
  const asAlert = alert ? { role: 'alert', 'data-form-alert': '', 'data-form-alert-text': '' } : {};
  return (
    <p id={id} className="field-error" data-error-for={name} hidden={!text} {...asAlert}>
      {text ?? ''}
    </p>
  );
}

/** A checkbox with its words beside it, and its message slot (the terms to accept, say). */
export function Check({
  name,
  idPrefix,
  need,
  error,
  children,
  ...control
}: Pick<FieldOwn, 'name' | 'idPrefix' | 'error'> & {
  need?: 'required';
  children: ReactNode;
} & ControlAttributes<InputHTMLAttributes<HTMLInputElement>>) {
  const ids = fieldIds(idPrefix, name);
  return (
    <div>
      <label className="check">
        <input
          type="checkbox"
          value="true"
          {...control}
          id={ids.id}
          name={name}
          required={need === 'required' ? true : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
        />
        <span>
          {children}
          {need === 'required' ? (
            <>
              {' '}
              <span className="req">*</span>
            </>
          ) : null}
        </span>
      </label>
      <MessageSlot id={ids.error} name={name} text={error} />
    </div>
  );
}
