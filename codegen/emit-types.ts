import { compile } from 'json-schema-to-typescript';
import type { RevisionModel } from './model.js';
import { ANNOTATION_KEYWORDS, isSchemaObject, mapSchema, refTarget, type Schema } from './schema-walk.js';

/**
 * Typedoc links in the schema's descriptions lost their separator upstream
 * (`{@link CallToolRequesttools/call}`); restore `{@link CallToolRequest | tools/call}` when
 * the prefix is a definition name, so editors show a working link.
 */
export function repairLinks(text: string, names: ReadonlySet<string>): string {
  // The target is one token that may contain the method's `/`; links with a label, a member
  // path (`Tool.outputSchema`) or a separator already are left alone.
  return text.replace(/\{@link ([A-Za-z0-9_/]+)\}/g, (whole, word: string) => {
    if (names.has(word)) return whole;
    for (let cut = word.length - 1; cut > 0; cut--) {
      if (names.has(word.slice(0, cut))) return `{@link ${word.slice(0, cut)} | ${word.slice(cut)}}`;
    }
    return whole;
  });
}

/** Definitions that sit in a `_meta` position: their keys are open by the spec's rules. */
export function metaTargets(model: RevisionModel): Set<string> {
  const open = new Set<string>();
  for (const def of Object.values(model.definitions)) {
    mapSchema(def, (schema) => {
      const meta = isSchemaObject(schema.properties) ? schema.properties._meta : undefined;
      const target = isSchemaObject(meta) ? refTarget(meta.$ref) : null;
      if (target !== null) open.add(target);
      return schema;
    });
  }
  return open;
}

/**
 * Prepares one definition for json-schema-to-typescript: `$ref`s become references to the
 * named type (no `Foo1` copies, no lost aliases), nodes with no validation keyword become
 * `unknown`, nested titles are dropped (they would spawn extra interfaces), objects are closed
 * unless the schema opens them, and `_meta` objects stay open so users can add keys such as
 * `traceparent`.
 */
export function prepareForTypes(def: Schema, names: ReadonlySet<string>, open: ReadonlySet<string>, isOpen: boolean): Schema {
  const prepared = mapSchema(def, (schema, path) => {
    const out: Schema = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'title' && path.length > 0) continue;
      if (key === 'description' && typeof value === 'string') out[key] = repairLinks(value, names);
      else out[key] = value;
    }
    // `anyOf` alternatives that only require members (at least one of A or B) constrain values,
    // not shapes: the members are declared in `properties` already, so the type omits them.
    if (Array.isArray(out.anyOf) && out.anyOf.every((alt) => isSchemaObject(alt) && Object.keys(alt).every((key) => key === 'required'))) {
      delete out.anyOf;
    }
    const target = refTarget(out.$ref);
    if (target !== null) {
      delete out.$ref;
      out.tsType = target;
    } else if (Object.keys(out).every((key) => ANNOTATION_KEYWORDS.has(key))) {
      // Accepts any JSON value; json-schema-to-typescript would guess an object from the description.
      out.tsType = 'unknown';
    }
    const meta = isSchemaObject(out.properties) ? out.properties._meta : undefined;
    if (isSchemaObject(meta) && meta.tsType === undefined && meta.type === 'object' && meta.additionalProperties === undefined) {
      (out.properties as Schema)._meta = { ...meta, additionalProperties: {} };
    }
    return out;
  }) as Schema;
  delete prepared.title;
  if (isOpen && prepared.additionalProperties === undefined && (prepared.type === 'object' || prepared.properties !== undefined)) {
    prepared.additionalProperties = {};
  }
  return prepared;
}

/** Emits one TypeScript declaration per definition, named exactly as the definition. */
export async function emitTypes(model: RevisionModel): Promise<string> {
  const names = new Set(Object.keys(model.definitions));
  const open = metaTargets(model);
  const chunks = await Promise.all(
    Object.entries(model.definitions).map(async ([name, def]) => {
      const schema = prepareForTypes(def, names, open, open.has(name));
      const source = await compile(schema as never, name, {
        bannerComment: '',
        additionalProperties: false,
        unknownAny: true,
        declareExternallyReferenced: true,
        enableConstEnums: false,
        strictIndexSignatures: false,
        format: true,
        style: { singleQuote: true, printWidth: 100, trailingComma: 'all' },
      });
      const declared = [...source.matchAll(/^export (?:interface|type) ([A-Za-z0-9_]+)/gm)].map((m) => m[1]);
      if (declared.length !== 1 || declared[0] !== name) {
        throw new Error(`revision ${model.pin.revision}: definition ${name} emitted declarations ${declared.join(', ')}; expected exactly ${name}`);
      }
      return source.trim();
    }),
  );
  return `${chunks.join('\n\n')}\n`;
}
