/**
 * Test access to the official schemas. The tests never commit schema bytes: they read them
 * from the folder named by MCP_SPEC_MIRROR, which holds `<revision>/schema.json`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** Every pinned revision, oldest first; `draft` sorts last. */
export const REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'draft'] as const;
export type Revision = (typeof REVISIONS)[number];

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The mirror folder; a missing setting fails the calling test with instructions. */
export function specMirror(): string {
  const dir = process.env['MCP_SPEC_MIRROR'];
  if (dir === undefined || dir.trim() === '') {
    throw new Error(
      'MCP_SPEC_MIRROR is not set: export it as the absolute path of the spec mirror folder that holds <revision>/schema.json (e.g. MCP_SPEC_MIRROR=/work/shared/spec)',
    );
  }
  return dir;
}

const schemaCache = new Map<string, JsonObject>();

/** Parsed `schema.json` of a revision, read once per test file. */
export function readSchema(revision: string): JsonObject {
  const cached = schemaCache.get(revision);
  if (cached !== undefined) return cached;
  const file = join(specMirror(), revision, 'schema.json');
  if (!existsSync(file)) {
    throw new Error(`revision ${revision}: ${file} does not exist; MCP_SPEC_MIRROR must point at a folder holding <revision>/schema.json`);
  }
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!isObject(parsed)) throw new Error(`revision ${revision}: ${file} is not a JSON object`);
  schemaCache.set(revision, parsed);
  return parsed;
}

/** The definitions table, whichever keyword the revision's dialect uses. */
export function definitionsOf(schema: JsonObject): Record<string, JsonObject> {
  const defs = schema['$defs'] ?? schema['definitions'];
  if (!isObject(defs)) throw new Error('schema has neither $defs nor definitions');
  const result: Record<string, JsonObject> = {};
  for (const [name, def] of Object.entries(defs)) {
    if (isObject(def)) result[name] = def;
  }
  return result;
}

/** Position of a revision in release order, so `since`/`until` ranges can be compared. */
export function revisionOrder(revision: string): number {
  const index = (REVISIONS as readonly string[]).indexOf(revision);
  if (index < 0) throw new Error(`unknown revision ${revision}`);
  return index;
}

/** The `$id` the converted document is registered under in ajv. */
const SCHEMA_ID = 'mcp';

/**
 * Rewrites a 2020-12 document into the draft-07 shape ajv's default class reads. The MCP
 * schemas use no keyword whose meaning differs between the two drafts, so moving `$defs`
 * to `definitions` and repointing the `$ref`s is the whole conversion.
 */
function toDraft07(schema: JsonObject): JsonObject {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = key === '$ref' && typeof value === 'string' ? value.replace(/^#\/\$defs\//, '#/definitions/') : rewrite(value);
    }
    return out;
  };
  const copy = rewrite(schema) as JsonObject;
  if ('$defs' in copy) {
    copy['definitions'] = copy['$defs'];
    delete copy['$defs'];
  }
  copy['$schema'] = 'http://json-schema.org/draft-07/schema#';
  copy['$id'] = SCHEMA_ID;
  return copy;
}

export type DefinitionValidator = (definition: string) => ValidateFunction;

/** Compiles a whole schema document once; validators for single definitions come out lazily. */
export function definitionValidators(schema: JsonObject): DefinitionValidator {
  // Both packages are CommonJS: under NodeNext the default import is `module.exports`, and
  // the class and plugin sit on its `default` member.
  const ajv = new Ajv.default({ strict: false, allowUnionTypes: true, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(toDraft07(schema));
  const compiled = new Map<string, ValidateFunction>();
  return (definition) => {
    let validate = compiled.get(definition);
    if (validate === undefined) {
      validate = ajv.getSchema(`${SCHEMA_ID}#/definitions/${definition}`);
      if (validate === undefined) throw new Error(`schema has no definition ${definition}`);
      compiled.set(definition, validate);
    }
    return validate;
  };
}
