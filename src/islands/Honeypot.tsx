/**
 * The honeypot field every public form carries: hidden from people, filled only by bots. The
 * islands render it, and the newsletter box and the report dialog render it statically.
 */
export function Honeypot() {
  return (
    <div className="hp" aria-hidden="true">
      <label>
        Website (leave empty)
        <input name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}
