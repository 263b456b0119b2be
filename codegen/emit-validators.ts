/**
 * mcpgen's ahead-of-time validator emitter: each revision's validators.ts holds that revision's
 * checks as plain functions, one per definition reached (a `$ref` is a call), so a bundle pinned
 * to one revision carries only its own validators and a bundler drops the unreferenced ones.
 */
import { CodegenError } from './model.js';
import { canonicalJson, isSchemaObject, type Schema, stripAnnotations, walkSchema } from './schema-walk.js';
import { codegenError } from './validator-emit/keywords.js';
import { compileNode, FunctionBody, type ModuleScope, q } from './validator-emit/schema-code.js';

/** A schema to compile into a named validator for one revision. */
export interface ValidatorTarget {
  /** Definition name, or a synthetic name such as `PingRequest.params` for inline schemas. */
  readonly name: string;
  readonly schema: Schema;
}

/** What a module compiles and where its definitions live. */
export interface ValidatorModuleInput {
  readonly revision: string;
  readonly definitions: Readonly<Record<string, Schema>>;
  readonly targets: readonly ValidatorTarget[];
  /**
   * Definitions another module compiles (an extension's core revision), each by the name of the
   * Validator that module exports; they are called through `subValidator`.
   */
  readonly external?: ReadonlyMap<string, string>;
  /**
   * Definitions a shared validator module compiles, each by the name of the check function it
   * exports; they are called directly, as a definition of this module is.
   */
  readonly imported?: ReadonlyMap<string, string>;
  /** Inline sub-schemas (by canonical text) a shared validator module checks, each by the function it exports. */
  readonly importedInline?: ReadonlyMap<string, string>;
  /** Whether every function is exported, for modules that import them. */
  readonly exportChecks?: boolean;
}

/** The compiled functions of one module, ready to be written after its imports and exports. */
export interface CompiledValidators {
  /** Function declarations, in a stable order. */
  readonly code: string;
  /** Target name → the function that checks it. */
  readonly checkOf: ReadonlyMap<string, string>;
  /** validator-support helpers the functions call, sorted. */
  readonly helpers: readonly string[];
  /** External validators the functions call, sorted. */
  readonly externalUsed: readonly string[];
  /** Imported check functions the functions call, sorted. */
  readonly importedUsed: readonly string[];
  /** Inline sub-schemas given a function of their own: canonical text → function. */
  readonly inline: ReadonlyMap<string, string>;
}

/** The name of the function that checks `target` (a definition, or a synthetic target name). */
export function functionName(target: string): string {
  return `check${target.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** Compiles the targets and every definition they reach into one module's functions. */
export function compileValidators(input: ValidatorModuleInput): CompiledValidators {
  const functions = new Map<string, string>();
  const helpers = new Set<string>();
  const externalUsed = new Set<string>();
  const importedUsed = new Set<string>();
  const byDefinition = new Map<string, string>();
  const queue: Array<{ name: string; owner: string; schema: unknown }> = [];
  // Inline sub-schemas that need a function (anyOf branches) share one when they are equal.
  const inline = new Map<string, string>();
  const inlineCount = new Map<string, number>();

  const reserve = (name: string, owner: string, schema: unknown): string => {
    if (functions.has(name)) throw new CodegenError(`revision ${input.revision}: validator function ${name} would be emitted twice (definition ${owner})`);
    functions.set(name, '');
    queue.push({ name, owner, schema });
    return name;
  };
  const definitionFunction = (definition: string, from: string): string => {
    const known = byDefinition.get(definition);
    if (known !== undefined) return known;
    const schema = input.definitions[definition];
    if (schema === undefined) throw new CodegenError(`revision ${input.revision}: definition ${from} refers to unknown definition ${definition}`);
    const name = reserve(functionName(definition), definition, schema);
    byDefinition.set(definition, name);
    return name;
  };

  const recurring = recurringSchemas(input);
  const checkOf = new Map<string, string>();
  for (const target of input.targets) {
    const name = input.definitions[target.name] === target.schema ? definitionFunction(target.name, target.name) : reserve(functionName(target.name), target.name, target.schema);
    checkOf.set(target.name, name);
  }

  while (queue.length > 0) {
    const { name, owner, schema } = queue.shift()!;
    const scope: ModuleScope = {
      site: { revision: input.revision, definition: owner },
      refCall: (definition, data) => {
        const external = input.external?.get(definition);
        if (external !== undefined) {
          externalUsed.add(external);
          helpers.add('subValidator');
          return `subValidator(${external}, ${data})`;
        }
        const imported = input.imported?.get(definition);
        if (imported !== undefined) {
          importedUsed.add(imported);
          return `${imported}(${data})`;
        }
        return `${definitionFunction(definition, owner)}(${data})`;
      },
      schemaCall: (sub, data) => {
        const key = canonicalJson(stripAnnotations(sub));
        const imported = input.importedInline?.get(key);
        if (imported !== undefined) {
          importedUsed.add(imported);
          return `${imported}(${data})`;
        }
        let fn = inline.get(key);
        if (fn === undefined) {
          const n = (inlineCount.get(owner) ?? 0) + 1;
          inlineCount.set(owner, n);
          fn = reserve(`${functionName(owner)}$${n}`, owner, sub);
          inline.set(key, fn);
        }
        return `${fn}(${data})`;
      },
      shared: (sub) => worthSharing(sub) && (recurring.get(canonicalJson(stripAnnotations(sub))) ?? 0) > 1,
      helper: (helper) => {
        helpers.add(helper);
        return helper;
      },
    };
    const body = new FunctionBody();
    try {
      compileNode(body, scope, schema, 'd', []);
    } catch (error) {
      if (error instanceof CodegenError) throw error;
      throw codegenError(scope.site, (error as Error).message);
    }
    if (body.usesMark) helpers.add('mark');
    const exported = input.exportChecks === true ? 'export ' : '';
    const lines = [`${exported}function ${name}(d: any): boolean {`, ...(body.usesMark ? ['  const s = mark();'] : []), ...body.lines, '  return true;', '}'];
    functions.set(name, lines.join('\n'));
  }

  const code = [...functions.keys()]
    .sort()
    .map((name) => functions.get(name)!)
    .join('\n');
  return { code, checkOf, helpers: [...helpers].sort(), externalUsed: [...externalUsed].sort(), importedUsed: [...importedUsed].sort(), inline };
}

/** Positions where a sub-schema checks a value of its own (and so could be a call). */
function isValuePosition(path: readonly string[]): boolean {
  const last = path[path.length - 1];
  return path[path.length - 2] === 'properties' || last === 'items' || last === 'additionalProperties';
}

/** How often each inline schema occurs at a value position, by canonical text. */
function recurringSchemas(input: ValidatorModuleInput): Map<string, number> {
  const counts = new Map<string, number>();
  const roots = [...Object.values(input.definitions), ...input.targets.filter((t) => input.definitions[t.name] !== t.schema).map((t) => t.schema)];
  for (const root of roots) {
    walkSchema(root, (schema, path) => {
      if (!isValuePosition(path)) return;
      const key = canonicalJson(stripAnnotations(schema));
      counts.set(key, (counts.get(key) ?? 0) + 1);
    });
  }
  return counts;
}

/** A schema with more than one check, so that a call is shorter than its inline code. */
function worthSharing(schema: unknown): boolean {
  if (!isSchemaObject(schema)) return false;
  const keys = Object.keys(stripAnnotations(schema) as Schema);
  return keys.length > 1 || keys.some((key) => ['properties', 'items', 'anyOf', 'allOf', 'additionalProperties'].includes(key));
}

/** The definitions of a revision that live in its shared validator module, by their check function. */
export interface SharedValidators {
  /** Path of the module, relative to generated/. */
  readonly file: string;
  /** Definition name → the check function the module exports. */
  readonly checks: ReadonlyMap<string, string>;
  /** Inline sub-schemas the module checks (canonical text → the function it exports), reused rather than compiled again. */
  readonly inline: ReadonlyMap<string, string>;
  /** The module's text, without its header. */
  readonly text: string;
}

/** The import (or re-export) of `names` from the shared module, for a module `depth` folders below generated/. */
export function sharedImport(shared: SharedValidators, names: readonly string[], depth: number, keyword: 'import' | 'export' = 'import'): string {
  return `${keyword} { ${[...names].sort().join(', ')} } from ${q(`${'../'.repeat(depth)}${shared.file.replace(/\.ts$/, '.js')}`)};`;
}

/** One `export const` line: the typed Validator wrapping a compiled check. */
export function validatorExport(exportName: string, check: string, type: string): string {
  return `export const ${exportName} = /* @__PURE__ */ validator<${type}>(${check});`;
}

/** The import of validator-support for a module (`path` is relative to that module). */
export function supportImport(compiled: CompiledValidators, path: string): string {
  return `import { ${[...new Set([...compiled.helpers, 'validator'])].sort().join(', ')} } from ${q(path)};`;
}
