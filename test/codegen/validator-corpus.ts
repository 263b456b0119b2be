/**
 * Inputs for the differential validator test: an instance built from each definition's schema,
 * every value nested in the official examples, and single-point mutations of both (a required
 * property dropped, a wrong type, an extra property, a wrong constant, an out-of-range number,
 * a bad format), so every keyword sees values it accepts and values it rejects.
 */
import { isSchemaObject, refTarget, type Schema } from '../../codegen/schema-walk.js';

type Json = unknown;

const FORMAT_SAMPLES: Record<string, string> = { uri: 'https://example.com/a', byte: 'aGk=', 'uri-template': 'file:///{path}' };

/** A value the schema accepts where the generator can tell (first anyOf branch, minimum bounds). */
export function sampleOf(schema: unknown, definitions: Readonly<Record<string, Schema>>, depth = 0): Json {
  if (!isSchemaObject(schema) || depth > 12) return {};
  const ref = refTarget(schema.$ref);
  let base: Json = ref !== null ? sampleOf(definitions[ref], definitions, depth + 1) : undefined;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.anyOf)) base = sampleOf(schema.anyOf[0], definitions, depth + 1);
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) {
      const value = sampleOf(part, definitions, depth + 1);
      base = isSchemaObject(base) && isSchemaObject(value) ? { ...base, ...value } : value;
    }
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, Json> = isSchemaObject(base) ? { ...base } : {};
      const properties = isSchemaObject(schema.properties) ? schema.properties : {};
      for (const name of (schema.required as string[] | undefined) ?? []) out[name] = sampleOf(properties[name], definitions, depth + 1);
      return out;
    }
    case 'array':
      return schema.items === undefined ? [] : [sampleOf(schema.items, definitions, depth + 1)];
    case 'string':
      return typeof schema.format === 'string' ? (FORMAT_SAMPLES[schema.format] ?? 'x') : 'x';
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return base ?? {};
  }
}

/** Every value nested in `value` (itself included), deduplicated by JSON text. */
export function nestedValues(value: Json, into = new Map<string, Json>()): Map<string, Json> {
  into.set(JSON.stringify(value), value);
  if (Array.isArray(value)) for (const item of value) nestedValues(item, into);
  else if (isSchemaObject(value)) for (const item of Object.values(value)) nestedValues(item, into);
  return into;
}

/** Replacement values that break type, const, enum, range and format checks. */
const REPLACEMENTS: readonly Json[] = ['bogus', 'not a uri', '%zz', '{bad', '', 42, 1.5, -1, 2, 1e9, true, null, [], {}, ['x']];

/** Copies of `value`, each with one change at one position. */
export function mutations(value: Json): Json[] {
  const out: Json[] = [];
  const visit = (node: Json, rebuild: (replacement: Json) => Json, depth: number) => {
    for (const replacement of REPLACEMENTS) out.push(rebuild(replacement));
    if (depth > 6) return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, (r) => rebuild(node.map((x, j) => (j === i ? r : x))), depth + 1));
      if (node.length > 0) out.push(rebuild([...node, ...node]));
    } else if (isSchemaObject(node)) {
      out.push(rebuild({ ...node, zzExtra: 1 }));
      for (const key of Object.keys(node)) {
        const { [key]: _dropped, ...rest } = node;
        out.push(rebuild(rest));
        visit(node[key], (r) => rebuild({ ...node, [key]: r }), depth + 1);
      }
    }
  };
  visit(value, (r) => r, 0);
  return out;
}
