/** Characters that could end a `<script>` element or an HTML comment, or break a JS string. */
const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON for the inside of a `<script>` element (JSON-LD, island data). The one serializer for
 * data put into a script block: `<`, `>`, `&`, U+2028 and U+2029 become `\u` escapes, so no
 * string value can close the element (`</script>`), open a comment (`<!--`) or end a line in
 * older JS parsers, and the JSON still parses to the same value.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (ch) => ESCAPES[ch]!);
}
