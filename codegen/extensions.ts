/**
 * Extensions through the generator: an extension's schema is pinned like a revision
 * (spec/extensions.json, hash-checked, patched from spec/patches/extension-<name>-<version>.json)
 * and generated into generated/extensions/<name>/. Its schema comes from another generator
 * (Zod's JSON Schema output, one `$schema` per definition, `allOf` compositions) and
 * re-declares the core definitions it uses; those that are identical to the core revision's
 * (after patches, with everything they reach) are re-exported from the core module, not copied.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlineParamsTarget, validatorName } from './emit-revision.js';
import { emitTypes } from './emit-types.js';
import { compileValidators, type SharedValidators, sharedImport, supportImport, type ValidatorTarget, validatorExport } from './emit-validators.js';
import { EXTENSION_OVERLAY, type ExtensionFacts } from './extension-overlay.js';
import type { MethodSpec } from './method-spec.js';
import type { RevisionTable } from './method-table.js';
import { nameHeaderMember } from './name-header.js';
import { buildModel, CodegenError, reachable, type RevisionModel } from './model.js';
import { applyPatches, loadPatches } from './patches.js';
import { canonicalJson, isSchemaObject, mapSchema, refTarget, type Schema, stripAnnotations } from './schema-walk.js';
import { loadSchema, SpecSourceError, type RevisionPin } from './spec-source.js';

/** One pinned extension schema as recorded in spec/extensions.json. */
export interface ExtensionPin {
  /** Short name: folder under generated/extensions/ and package subpath. */
  readonly name: string;
  /** Extension identifier, its key in `capabilities.extensions`. */
  readonly id: string;
  /** Version folder of the schema in its repository (`draft`, or a date). */
  readonly version: string;
  /** The core revision whose definitions the schema re-declares. */
  readonly core: string;
  readonly repository: string;
  readonly url: string;
  readonly sha256: string;
}

/** An extension loaded, patched, mapped against its core revision. */
export interface BuiltExtension {
  readonly pin: ExtensionPin;
  /** All definitions of the extension (patched, draft-07 form); `pin.revision` is `extensions/<name>`. */
  readonly model: RevisionModel;
  /** Definitions generated here, sorted. */
  readonly local: readonly string[];
  /** Definitions identical to the core revision's, re-exported from it, sorted. */
  readonly referenced: readonly string[];
  readonly table: RevisionTable;
  /** Core method → names of the extension's result definitions it allows. */
  readonly resultAlternatives: Readonly<Record<string, readonly string[]>>;
  /** What the shared validator module must compile for this extension. */
  readonly targets: readonly ValidatorTarget[];
}

/** Reads spec/extensions.json; a root without the file pins no extension. */
export function readExtensionPins(root: string): ExtensionPin[] {
  const file = join(root, 'spec', 'extensions.json');
  if (!existsSync(file)) return [];
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { extensions?: unknown };
  if (!Array.isArray(parsed.extensions)) throw new SpecSourceError(`${file}: "extensions" must be an array`);
  return parsed.extensions.map((entry: Record<string, unknown>, i: number) => {
    for (const key of ['name', 'id', 'version', 'core', 'repository', 'url', 'sha256']) {
      if (typeof entry[key] !== 'string' || entry[key] === '') throw new SpecSourceError(`${file}: extensions[${i}].${key} must be a non-empty string`);
    }
    if (!/^[0-9a-f]{64}$/.test(entry.sha256 as string)) throw new SpecSourceError(`${file}: extensions[${i}].sha256 must be 64 lowercase hex digits`);
    if (!/^[a-z][a-z0-9-]*$/.test(entry.name as string)) throw new SpecSourceError(`${file}: extensions[${i}].name must be kebab-case`);
    return entry as unknown as ExtensionPin;
  });
}

/** The key the loader and the mirror use: `$MCP_SPEC_MIRROR/extensions/<name>/<version>/schema.json`. */
export function extensionSourceKey(pin: ExtensionPin): string {
  return `extensions/${pin.name}/${pin.version}`;
}

/** The patch list's name: `spec/patches/extension-<name>-<version>.json`. */
export function extensionPatchKey(pin: ExtensionPin): string {
  return `extension-${pin.name}-${pin.version}`;
}

/**
 * Drops the per-definition `$schema` Zod writes when it names the document's own dialect
 * (ajv would look it up as a meta-schema); any other dialect is refused. Zod also writes each
 * definition as a document of its own, whose recursive parts sit in a nested `$defs` that its
 * `$ref`s (`#/$defs/__schema0`) point into; those are hoisted to top-level definitions named
 * after their first owner (`McpUiHostContextSchema0`), one per distinct nested `$defs`.
 */
export function normalizeDefinitions(key: string, document: Record<string, unknown>): Record<string, unknown> {
  const defs = (document.$defs ?? document.definitions) as unknown;
  if (!isSchemaObject(defs)) throw new CodegenError(`${key}: schema has no $defs`);
  const out: Record<string, unknown> = {};
  /** Canonical text of a nested `$defs` → its local names' hoisted names. */
  const hoisted = new Map<string, Map<string, string>>();
  for (const name of Object.keys(defs).sort()) {
    const def = defs[name];
    if (!isSchemaObject(def)) throw new CodegenError(`${key}: definition ${name} is not a schema object`);
    const { $schema, $defs: nested, ...rest } = def;
    if ($schema !== undefined && $schema !== document.$schema) {
      throw new CodegenError(`${key}: definition ${name} declares dialect ${JSON.stringify($schema)}, not the document's ${JSON.stringify(document.$schema)}`);
    }
    if (nested === undefined) {
      out[name] = rest;
      continue;
    }
    if (!isSchemaObject(nested)) throw new CodegenError(`${key}: definition ${name} has a nested $defs that is not an object`);
    const text = canonicalJson(nested);
    let names = hoisted.get(text);
    if (names === undefined) {
      names = new Map(Object.keys(nested).map((local) => [local, hoistedName(name, local)]));
      for (const [local, global] of names) {
        if (defs[global] !== undefined || out[global] !== undefined) throw new CodegenError(`${key}: nested definition ${local} of ${name} would be hoisted as ${global}, which is taken`);
        out[global] = rewriteLocalRefs(nested[local], names);
      }
      hoisted.set(text, names);
    }
    out[name] = rewriteLocalRefs(rest, names);
  }
  const { $defs: _defs, definitions: _definitions, ...top } = document;
  return { ...top, $defs: out };
}

/** `McpUiHostContext` + `__schema0` → `McpUiHostContextSchema0`. */
function hoistedName(owner: string, local: string): string {
  const words = local.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  return owner + words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

/** Points a definition's `$ref`s into its nested `$defs` at the hoisted names. */
function rewriteLocalRefs(schema: unknown, names: ReadonlyMap<string, string>): unknown {
  return mapSchema(schema, (node) => {
    const target = refTarget(node.$ref);
    const global = target === null ? undefined : names.get(target);
    return global === undefined ? node : { ...node, $ref: `#/$defs/${global}` };
  });
}

/** Properties and required names of a definition, merged over its inline `allOf` members. */
function ownShape(def: Schema): { properties: Record<string, Schema>; required: string[]; bases: string[] } {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const bases: string[] = [];
  const visit = (schema: Schema) => {
    const base = refTarget(schema.$ref);
    if (base !== null) bases.push(base);
    if (isSchemaObject(schema.properties)) Object.assign(properties, schema.properties);
    if (Array.isArray(schema.required)) required.push(...(schema.required as string[]));
    for (const member of (schema.allOf as unknown[] | undefined) ?? []) if (isSchemaObject(member)) visit(member);
  };
  visit(def);
  return { properties, required, bases };
}

function stubName(kind: 'request' | 'notification', definition: string, prefix: string): string {
  const unprefixed = prefix !== '' && definition.startsWith(prefix) ? definition.slice(prefix.length) : definition;
  const base = unprefixed.replace(/(Request|Notification)$/, '');
  return kind === 'request' ? base.charAt(0).toLowerCase() + base.slice(1) : `notify${base}`;
}

/**
 * Whether a definition is a request or a notification: built on JSONRPCRequest /
 * JSONRPCNotification where the schema re-declares the envelope, or else (`messages: 'name'`)
 * named `…Request` / `…Notification`, as in the apps schema, which defines only `method` and
 * `params`.
 */
function messageKind(definition: string, bases: readonly string[], messages: ExtensionFacts['messages']): 'request' | 'notification' | null {
  if (messages === 'envelope') return bases.includes('JSONRPCRequest') ? 'request' : bases.includes('JSONRPCNotification') ? 'notification' : null;
  if (bases.length > 0) return null;
  if (definition.endsWith('Request')) return 'request';
  if (definition.endsWith('Notification')) return 'notification';
  return null;
}

/** The extension's methods: request and notification definitions (see messageKind) with a method const. */
function buildExtensionTable(key: string, model: RevisionModel, name: string, id: string, coreStateless: boolean): RevisionTable {
  const facts = EXTENSION_OVERLAY[name];
  if (facts === undefined) throw new CodegenError(`${key}: codegen/extension-overlay.ts has no entry for extension ${name}`);
  const methods: MethodSpec[] = [];
  for (const [definition, def] of Object.entries(model.definitions)) {
    const shape = ownShape(def);
    const kind = messageKind(definition, shape.bases, facts.messages);
    const methodSchema = shape.properties.method;
    if (kind === null || !isSchemaObject(methodSchema) || typeof methodSchema.const !== 'string') continue;
    const method = methodSchema.const;
    const direction = facts.directions[method];
    if (direction === undefined) throw new CodegenError(`${key}: method ${method} (${definition}) has no direction in codegen/extension-overlay.ts`);
    const params = shape.properties.params;
    const paramsDefinition = isSchemaObject(params) ? refTarget(params.$ref) : null;
    let results: string[] = [];
    if (kind === 'request') {
      const result = `${definition.replace(/Request$/, '')}Result`;
      if (model.definitions[result] === undefined) throw new CodegenError(`${key}: request ${definition} has no ${result} definition`);
      results = [result];
    }
    methods.push({
      method,
      kind,
      direction,
      embedded: false,
      definition,
      paramsDefinition,
      paramsSchema: paramsDefinition === null && isSchemaObject(params) ? params : null,
      paramsRequired: shape.required.includes('params'),
      resultDefinitions: results,
      // On an MCP connection, requests need the receiver (the server) to declare the
      // extension and notifications their sender (the server); a connection of the
      // extension's own has no MCP capabilities to gate on.
      capability: facts.gate === 'none' ? null : { holder: kind === 'request' ? 'receiver' : 'sender', path: ['extensions', id] },
      paginatedField: null,
      cacheable: false,
      stubName: stubName(kind, definition, facts.definitionPrefix ?? ''),
      // The extension's requests travel on its core revision's transport.
      nameHeader: nameHeaderMember(model, { definition, kind, embedded: false, params: isSchemaObject(params) ? params : null, stateless: coreStateless }),
    });
  }
  for (const method of Object.keys(facts.directions)) {
    if (!methods.some((spec) => spec.method === method)) throw new CodegenError(`${key}: codegen/extension-overlay.ts names method ${method}, which the schema does not define`);
  }
  methods.sort((a, b) => (a.method < b.method ? -1 : 1));
  return { methods, errorCodes: [], batching: false, features: { primingEvents: false, ssePolling: false, resumableStreams: false }, changeNotifications: [], loggingLevels: [], warnings: [] };
}

/**
 * Names of the extension's definitions that are the core revision's: same name, same
 * validation (annotations ignored), and the same for every definition they reach.
 */
export function sharedWithCore(extension: RevisionModel, core: RevisionModel): Set<string> {
  const same = (name: string) =>
    core.definitions[name] !== undefined &&
    canonicalJson(stripAnnotations(extension.definitions[name])) === canonicalJson(stripAnnotations(core.definitions[name]));
  const shared = new Set<string>();
  for (const name of Object.keys(extension.definitions)) {
    if (reachable(extension, [name]).every(same)) shared.add(name);
  }
  return shared;
}

/** Loads, normalizes and patches an extension's schema and maps it against its core revision. */
export async function buildExtension(pin: ExtensionPin, core: RevisionModel, options: { root: string; mirror?: string | undefined }): Promise<BuiltExtension> {
  const key = extensionSourceKey(pin);
  if (core.pin.revision !== pin.core) throw new CodegenError(`${key}: built against ${core.pin.revision}, but its pin names core revision ${pin.core}`);
  const sourcePin: RevisionPin = { revision: key, url: pin.url, sha256: pin.sha256, era: core.pin.era, status: 'draft' };
  const loaded = await loadSchema(sourcePin, { mirror: options.mirror, cacheDir: join(options.root, '.cache', 'spec') });
  const patches = loadPatches(extensionPatchKey(pin), options.root);
  const patched = applyPatches(key, normalizeDefinitions(key, loaded.document), patches) as Record<string, unknown>;
  const model = buildModel({ ...sourcePin, revision: `extensions/${pin.name}` }, patched, patches.map((p) => p.id));
  const shared = sharedWithCore(model, core);
  const local = Object.keys(model.definitions).filter((name) => !shared.has(name)).sort();
  const referenced = [...shared].sort();
  const table = buildExtensionTable(key, model, pin.name, pin.id, core.definitions.InitializeRequest === undefined);
  const facts = EXTENSION_OVERLAY[pin.name]!;
  for (const [method, names] of Object.entries(facts.resultAlternatives)) {
    for (const name of names) {
      if (!local.includes(name)) throw new CodegenError(`${key}: result alternative ${name} of ${method} is not a definition of the extension`);
      if (typeof resultTypeOf(model, name) !== 'string') throw new CodegenError(`${key}: result alternative ${name} of ${method} has no resultType const to dispatch on`);
    }
  }
  const targets: ValidatorTarget[] = local.map((name) => ({ name, schema: model.definitions[name]! }));
  for (const spec of table.methods) {
    if (spec.paramsDefinition === null && spec.paramsSchema !== null) targets.push({ name: inlineParamsTarget(spec), schema: spec.paramsSchema });
  }
  return { pin, model, local, referenced, table, resultAlternatives: facts.resultAlternatives, targets };
}

/** The `resultType` const of a result definition, looking through `allOf`. */
function resultTypeOf(model: RevisionModel, name: string): unknown {
  const value = ownShape(model.definitions[name]!).properties.resultType;
  return isSchemaObject(value) ? value.const : undefined;
}

function q(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The files of generated/extensions/<name>/ (without headers), by file name. */
export async function emitExtensionFiles(built: BuiltExtension, emitMethods: (model: RevisionModel, table: RevisionTable) => string, shared: SharedValidators | null): Promise<Record<string, string>> {
  const { pin, model, local, referenced, table } = built;
  const coreDir = `../../${pin.core}`;
  const localModel: RevisionModel = { ...model, definitions: Object.fromEntries(local.map((name) => [name, model.definitions[name]!])) };
  const usedCore = referenced.filter((name) => local.some((own) => reachable(model, [own]).includes(name)));
  const types = [
    ...(referenced.length > 0
      ? [`/** Definitions the extension shares with ${pin.core}: the core revision's own types. */`, `export type { ${referenced.join(', ')} } from '${coreDir}/types.js';`]
      : []),
    ...(usedCore.length > 0 ? [`import type { ${usedCore.join(', ')} } from '${coreDir}/types.js';`] : []),
    '',
    await emitTypes(localModel),
  ].join('\n');

  // Shared definitions are the core revision's, compiled once in its shared validator module
  // (outside the revision's folder): their checks are called directly, their validators re-exported.
  const imported = new Map(referenced.map((name) => {
    const check = shared?.checks.get(name);
    if (check === undefined) throw new CodegenError(`${extensionSourceKey(pin)}: ${name} is shared with ${pin.core}, but not in its shared validator module`);
    return [name, check];
  }));
  const compiled = compileValidators({ revision: model.pin.revision, definitions: model.definitions, targets: built.targets, imported, importedInline: shared?.inline });
  const validatorLines = [
    supportImport(compiled, '../../shared/validator-support.js'),
    ...(shared !== null && compiled.importedUsed.length > 0 ? [sharedImport(shared, compiled.importedUsed, 2)] : []),
    `import type * as T from './types.js';`,
    '',
    ...(shared !== null && referenced.length > 0 ? [sharedImport(shared, referenced.map(validatorName), 2, 'export'), ''] : []),
  ];
  for (const name of local) {
    validatorLines.push(`/** Checks a value against the \`${name}\` definition. */`);
    validatorLines.push(validatorExport(validatorName(name), compiled.checkOf.get(name)!, `T.${name}`));
  }
  for (const spec of table.methods) {
    if (spec.paramsDefinition !== null || spec.paramsSchema === null) continue;
    const target = inlineParamsTarget(spec);
    validatorLines.push(`/** Checks the inline \`params\` of \`${spec.method}\`. */`);
    validatorLines.push(validatorExport(validatorName(target), compiled.checkOf.get(target)!, `NonNullable<T.${spec.definition}['params']>`));
  }
  validatorLines.push('', compiled.code);

  const methods = emitMethods(localModel, table)
    .replace(/from '\.\.\/contract\.js'/g, `from '../../contract.js'`)
    .replace(/from '\.\.\/shared\//g, `from '../../shared/`)
    .replace('Every request and notification of this revision', `Every request and notification of the ${pin.name} extension`)
    .replace('A method name of this revision.', `A method name of the ${pin.name} extension.`)
    .replace('The method maps of this revision in one type, for typing a Client or Server pinned to it.', `The method maps of the ${pin.name} extension in one type.`);

  const alternatives = Object.entries(built.resultAlternatives).map(
    ([method, names]) => `  ${q(method)}: { ${names.map((name) => `${q(String(resultTypeOf(model, name)))}: ${validatorName(name)}`).join(', ')} },`,
  );
  const satisfiesAlternatives = 'as const satisfies Readonly<Record<string, Readonly<Record<string, Validator>>>>;';
  const altValidators = [...new Set(Object.values(built.resultAlternatives).flat())].map(validatorName);
  const all = [...new Set([...local, ...referenced])].sort();
  const index = [
    `import type { ExtensionModule, Validator } from '../../contract.js';`,
    `import { methods } from './methods.js';`,
    `import * as validators from './validators.js';`,
    '',
    `export type * from './types.js';`,
    `export * from './validators.js';`,
    `export * from './methods.js';`,
    '',
    `/** The extension identifier: its key in \`capabilities.extensions\`. */`,
    `export const extensionId = ${q(pin.id)};`,
    `/** The pinned version of the extension's schema. */`,
    `export const version = ${q(pin.version)};`,
    `/** The core revision whose definitions the extension shares. */`,
    `export const coreRevision = ${q(pin.core)};`,
    `/** sha256 of the upstream extension schema. */`,
    `export const schemaSha256 = ${q(pin.sha256)};`,
    ...Object.entries(EXTENSION_OVERLAY[pin.name]!.constants ?? {}).flatMap(([name, fact]) => [`/** ${fact.doc} */`, `export const ${name} = ${q(fact.value)};`]),
    '',
    `/** Results the extension allows on core methods, by method and \`resultType\`. */`,
    ...(alternatives.length > 0 ? [`export const resultAlternatives = {`, ...alternatives, `} ${satisfiesAlternatives}`] : [`export const resultAlternatives = {} ${satisfiesAlternatives}`]),
    '',
    `/** Everything the runtime needs to speak this extension. */`,
    `export const extensionModule: ExtensionModule = {`,
    `  id: extensionId,`,
    `  name: ${q(pin.name)},`,
    `  version,`,
    `  coreRevision,`,
    `  schemaSha256,`,
    `  methods,`,
    `  resultAlternatives,`,
    `  definitions: {`,
    ...all.map((name) => `    ${name}: validators.${validatorName(name)},`),
    `  },`,
    `};`,
    '',
  ].join('\n');
  // The result-alternative validators are used by name in `resultAlternatives`.
  const indexWithImports =
    altValidators.length === 0 ? index : index.replace(`import * as validators from './validators.js';`, `import * as validators from './validators.js';\nimport { ${altValidators.join(', ')} } from './validators.js';`);
  // A module of its own, so that importing the extension never loads the core revision: code
  // that speaks only the extension (an app's View) imports it statically instead of bundling
  // every revision's lazy loader.
  const core = [
    `/** The core revision module (${pin.core}) that the extension's connection speaks, loaded eagerly. */`,
    `export { revisionModule as coreRevisionModule } from '${coreDir}/index.js';`,
    '',
  ].join('\n');
  return { 'types.ts': types, 'validators.ts': `${validatorLines.join('\n')}\n`, 'methods.ts': methods, 'index.ts': indexWithImports, 'core.ts': core };
}
