/**
 * What /developers prints of the OpenAPI document (#33): each operation's parameters and the
 * fields of its answer, read from the document the API serves (functions/_app/routes/v1), so the
 * page cannot say something the API does not do.
 */

/** The part of a JSON Schema (OpenAPI 3.1) the page reads. */
export interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
  anyOf?: SchemaNode[];
}

/** One line of a field list: its dotted name, its type in words, whether it is always there, and what it means. */
export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

/** The component a `$ref` names ('#/components/schemas/Server' -> 'Server'). */
export const refName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

/** A schema's type in words: 'string', 'integer or null', 'array of Server', 'one of: members, active'. */
export function typeOf(s: SchemaNode): string {
  if (s.$ref) return refName(s.$ref);
  if (s.anyOf) return s.anyOf.map(typeOf).join(' or ');
  if (s.enum) return `one of: ${s.enum.map(String).join(', ')}`;
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  return types
    .map((t) =>
      t === 'array' && s.items
        ? `array of ${typeOf(s.items)}`
        : t === 'string' && s.format
          ? `string (${s.format})`
          : t,
    )
    .join(' or ');
}

/** Bounds and default of a parameter, in words ('1 to 100, default 9'). */
export function limitsOf(s: SchemaNode): string {
  const parts: string[] = [];
  if (s.minimum !== undefined && s.maximum !== undefined) parts.push(`${s.minimum} to ${s.maximum}`);
  else if (s.maximum !== undefined) parts.push(`at most ${s.maximum}`);
  if (s.maxLength !== undefined) parts.push(`up to ${s.maxLength} characters`);
  if (s.default !== undefined) parts.push(`default ${String(s.default)}`);
  return parts.join(', ');
}

/**
 * The fields of an object schema, nested objects flattened with dotted names (rank.place.rank);
 * a field that refers to another component is listed by that component's name, described once.
 */
export function fieldsOf(s: SchemaNode, prefix = ''): FieldRow[] {
  const rows: FieldRow[] = [];
  for (const [name, field] of Object.entries(s.properties ?? {})) {
    const full = `${prefix}${name}`;
    rows.push({
      name: full,
      type: typeOf(field),
      required: s.required?.includes(name) ?? false,
      description: field.description ?? '',
    });
    const inner = field.items && !field.items.$ref ? field.items : !field.$ref && field.properties ? field : undefined;
    if (inner?.properties) rows.push(...fieldsOf(inner, `${full}${field.items ? '[].' : '.'}`));
    else if (field.anyOf) {
      const obj = field.anyOf.find((a) => a.properties);
      if (obj) rows.push(...fieldsOf(obj, `${full}.`));
    }
  }
  return rows;
}

/** A piece of a description: text, or a code span's content. */
export interface DescriptionPart {
  code: boolean;
  text: string;
}

/**
 * A description's CommonMark code spans (`members`, `GET /api/v1/categories`) apart from the text
 * around them, so the page sets them as code instead of printing the backticks; a backtick
 * without its pair stays text.
 */
export function codeSpans(description: string): DescriptionPart[] {
  const parts: DescriptionPart[] = [];
  let at = 0;
  for (const m of description.matchAll(/`([^`]+)`/g)) {
    if (m.index > at) parts.push({ code: false, text: description.slice(at, m.index) });
    parts.push({ code: true, text: m[1]! });
    at = m.index + m[0].length;
  }
  if (at < description.length) parts.push({ code: false, text: description.slice(at) });
  return parts;
}
