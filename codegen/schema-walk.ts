/**
 * Structural walks over JSON Schema documents. Keyword positions matter: inside `properties`
 * the keys are property names, so a property called `description` is never mistaken for the
 * annotation keyword.
 */

export type Schema = Record<string, unknown>;

const SCHEMA_KEYWORDS = ['items', 'additionalProperties', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const SCHEMA_ARRAY_KEYWORDS = ['anyOf', 'oneOf', 'allOf'];
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'definitions', '$defs', 'dependencies'];

/** Keywords that only annotate and never change what a validator accepts. */
export const ANNOTATION_KEYWORDS = new Set(['description', 'title', 'examples', '$comment', 'default', 'deprecated', 'readOnly', 'writeOnly']);

export function isSchemaObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Rebuilds a schema bottom-up: `visit` sees each schema node after its children were rebuilt
 * and returns the replacement. Non-schema values are copied as they are.
 */
export function mapSchema(node: unknown, visit: (schema: Schema, path: readonly string[]) => Schema, path: readonly string[] = []): unknown {
  if (!isSchemaObject(node)) return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_KEYWORDS.includes(key)) {
      out[key] = Array.isArray(value)
        ? value.map((item, i) => mapSchema(item, visit, [...path, key, String(i)]))
        : mapSchema(value, visit, [...path, key]);
    } else if (SCHEMA_ARRAY_KEYWORDS.includes(key) && Array.isArray(value)) {
      out[key] = value.map((item, i) => mapSchema(item, visit, [...path, key, String(i)]));
    } else if (SCHEMA_MAP_KEYWORDS.includes(key) && isSchemaObject(value)) {
      const map: Schema = {};
      for (const [name, sub] of Object.entries(value)) map[name] = mapSchema(sub, visit, [...path, key, name]);
      out[key] = map;
    } else {
      out[key] = value;
    }
  }
  return visit(out, path);
}

/** Calls `visit` on every schema node, parents first. */
export function walkSchema(node: unknown, visit: (schema: Schema, path: readonly string[]) => void): void {
  mapSchema(node, (schema, path) => {
    visit(schema, path);
    return schema;
  });
}

/** Drops annotation keywords; the result validates exactly like the input. */
export function stripAnnotations(node: unknown): unknown {
  return mapSchema(node, (schema) => {
    const out: Schema = {};
    for (const [key, value] of Object.entries(schema)) if (!ANNOTATION_KEYWORDS.has(key)) out[key] = value;
    return out;
  });
}

/** JSON text with object keys sorted, so equal schemas give equal strings. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isSchemaObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The definition name a local `$ref` points at, or null for any other reference. */
export function refTarget(ref: unknown): string | null {
  if (typeof ref !== 'string') return null;
  const match = /^#\/(?:definitions|\$defs)\/([^/]+)$/.exec(ref);
  return match ? decodeURIComponent(match[1]!.replace(/~1/g, '/').replace(/~0/g, '~')) : null;
}
