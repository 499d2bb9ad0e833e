/**
 * Accessible wiring of one form control: `field(name)` gives its id, name, aria-invalid and
 * aria-describedby (its error and an optional hint); `error(name)` renders the message.
 */
export function fieldHelpers(errors: Record<string, string>, prefix: string) {
  return {
    field: (name: string, hint?: string) => ({
      id: `${prefix}-${name}`,
      name,
      'aria-invalid': errors[name] ? true : undefined,
      'aria-describedby': [errors[name] ? `${prefix}e-${name}` : '', hint ?? ''].filter(Boolean).join(' ') || undefined,
    }),
    error: (name: string) =>
      errors[name] ? (
        <p id={`${prefix}e-${name}`} className="field-error">
          {errors[name]}
        </p>
      ) : null,
  };
}
