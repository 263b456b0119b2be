import Ajv, { type AnySchemaObject } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { CodegenError, reachable, type RevisionModel } from './model.js';
import { canonicalJson, mapSchema, refTarget, type Schema, stripAnnotations } from './schema-walk.js';
import { sha256 } from './spec-source.js';

/** A schema to compile into a named validator for one revision. */
export interface ValidatorTarget {
  /** Definition name, or a synthetic name such as `PingRequest.params` for inline schemas. */
  readonly name: string;
  readonly schema: Schema;
}

/** Shared validator module plus, per revision, which export validates which target. */
export interface SharedValidators {
  /** JavaScript source of the shared module (ES module, no eval). */
  readonly code: string;
  /** revision → target name → export name in the shared module. */
  readonly exports: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** How ajv's standalone output reaches format checkers and runtime helpers, and what replaces it. */
const REQUIRE_REWRITES: ReadonlyArray<[RegExp, string]> = [
  [/require\("ajv-formats\/dist\/formats"\)\.fullFormats\.uri\b(?!-)/g, 'formats.uri'],
  [/require\("ajv-formats\/dist\/formats"\)\.fullFormats\.byte\b/g, 'formats.byte'],
  [/require\("ajv\/dist\/runtime\/ucs2length"\)\.default/g, 'ucs2length'],
  [/require\("ajv\/dist\/runtime\/equal"\)\.default/g, 'equal'],
];

function exportIdentifier(name: string, hash: string): string {
  return `${name.replace(/[^A-Za-z0-9_]/g, '_')}_${hash.slice(0, 8)}`;
}

/**
 * Compiles every target of every revision into one module. Targets whose schema and whose
 * reachable definitions are identical (annotations ignored) share one validator, so six
 * revisions do not carry six copies of `TextContent`.
 */
export function emitSharedValidators(models: readonly RevisionModel[], targetsByRevision: ReadonlyMap<string, readonly ValidatorTarget[]>): SharedValidators {
  const ajv = new Ajv.default({
    // strict rejects unknown (e.g. 2020-12-only) keywords, naming the definition; required-only
    // `anyOf` alternatives (at least one of A or B) are legitimate, so strictRequired is off.
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    inlineRefs: false,
    code: { source: true, esm: true, lines: false, optimize: true },
  });
  addFormats.default(ajv, ['uri', 'byte', 'uri-template']);

  const exports = new Map<string, Map<string, string>>();
  const registered = new Map<string, string>(); // export id → owner "<rev>:<name>" for messages
  const mapping: Record<string, string> = {};

  for (const model of models) {
    const defIds = new Map<string, string>();
    const idOf = (name: string, schema: Schema): string => {
      const closure = reachable(model, [], [schema]);
      const key = canonicalJson([name, stripAnnotations(schema), closure.map((n) => [n, stripAnnotations(model.definitions[n])])]);
      return exportIdentifier(name, sha256(key));
    };
    for (const [name, def] of Object.entries(model.definitions)) defIds.set(name, idOf(name, def));

    const revExports = new Map<string, string>();
    const targets = targetsByRevision.get(model.pin.revision) ?? [];
    for (const target of targets) {
      const id = defIds.get(target.name) ?? idOf(target.name, target.schema);
      revExports.set(target.name, id);
      if (registered.has(id)) continue;
      registered.set(id, `${model.pin.revision}:${target.name}`);
      const body = mapSchema(stripAnnotations(target.schema), (schema) => {
        const ref = refTarget(schema.$ref);
        return ref === null ? schema : { ...schema, $ref: defIds.get(ref)! };
      }) as Schema;
      try {
        ajv.addSchema({ ...body, $id: id } as AnySchemaObject);
      } catch (error) {
        throw new CodegenError(`revision ${model.pin.revision}: definition ${target.name} does not compile: ${(error as Error).message}`);
      }
      mapping[id] = id;
    }
    exports.set(model.pin.revision, revExports);
  }

  // Compile one by one first, so a failure names the definition that caused it.
  for (const [id, owner] of registered) {
    try {
      ajv.getSchema(id);
    } catch (error) {
      const [revision, name] = owner.split(':');
      throw new CodegenError(`revision ${revision}: definition ${name} does not compile: ${(error as Error).message}`);
    }
  }

  const sortedMapping: Record<string, string> = {};
  for (const id of Object.keys(mapping).sort()) sortedMapping[id] = id;
  let code = standaloneCode.default(ajv, sortedMapping);
  code = code.replace(/^"use strict";/, '');
  for (const [pattern, replacement] of REQUIRE_REWRITES) code = code.replace(pattern, replacement);
  if (/\brequire\(/.test(code)) {
    const sample = /require\([^)]*\)[^;]*/.exec(code)?.[0];
    throw new CodegenError(`validator code still requires a module after rewriting: ${sample}; add a rewrite in codegen/emit-validators.ts`);
  }
  return { code, exports };
}
