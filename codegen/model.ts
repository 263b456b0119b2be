import { isSchemaObject, mapSchema, refTarget, type Schema, walkSchema } from './schema-walk.js';
import type { RevisionPin } from './spec-source.js';

/** A revision's schema after patching, in one dialect: draft-07 with `#/definitions/` refs. */
export interface RevisionModel {
  readonly pin: RevisionPin;
  /** sha256 of the unpatched upstream bytes. */
  readonly schemaSha256: string;
  readonly definitions: Readonly<Record<string, Schema>>;
  /** Patch ids applied, in order. */
  readonly patches: readonly string[];
}

/** A codegen failure tied to one definition of one revision. */
export class CodegenError extends Error {
  override name = 'CodegenError';
}

/**
 * Rewrites a (patched) document into draft-07 form (`$defs` → `definitions`); the schemas use
 * no keyword that differs between the two dialects, and strict ajv rejects any that would.
 */
export function buildModel(pin: RevisionPin, patched: Record<string, unknown>, patchIds: readonly string[]): RevisionModel {
  const rawDefs = (patched.$defs ?? patched.definitions) as unknown;
  if (!isSchemaObject(rawDefs)) throw new CodegenError(`revision ${pin.revision}: schema has no definitions`);
  const names = new Set(Object.keys(rawDefs));
  const definitions: Record<string, Schema> = {};
  for (const name of Object.keys(rawDefs).sort()) {
    const def = rawDefs[name];
    if (!isSchemaObject(def)) throw new CodegenError(`revision ${pin.revision}: definition ${name} is not a schema object`);
    definitions[name] = mapSchema(def, (schema) => {
      if (schema.$ref === undefined) return schema;
      const target = refTarget(schema.$ref);
      if (target === null || !names.has(target)) {
        throw new CodegenError(`revision ${pin.revision}: definition ${name} has unresolvable $ref ${JSON.stringify(schema.$ref)}`);
      }
      return { ...schema, $ref: `#/definitions/${target}` };
    }) as Schema;
  }
  return {
    pin,
    schemaSha256: pin.sha256,
    definitions,
    patches: patchIds,
  };
}

/** Names of the definitions `name` refers to, directly or not, including itself. */
export function reachable(model: RevisionModel, roots: readonly string[], extra: readonly unknown[] = []): string[] {
  const seen = new Set<string>();
  const queue: unknown[] = [...roots.map((r) => model.definitions[r]), ...extra];
  for (const r of roots) seen.add(r);
  while (queue.length > 0) {
    walkSchema(queue.pop(), (schema) => {
      const target = refTarget(schema.$ref);
      if (target !== null && !seen.has(target)) {
        seen.add(target);
        queue.push(model.definitions[target]);
      }
    });
  }
  return [...seen].sort();
}
