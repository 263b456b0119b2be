/**
 * The protocol changelog between two revisions, computed from their patched, normalized models
 * and method tables: methods, capabilities, definitions, fields and enum/const values. Every list
 * is sorted, so the same two inputs always give the same changelog.
 */
import type { MethodSpec } from './method-spec.js';
import type { RevisionTable } from './method-table.js';
import type { RevisionModel } from './model.js';
import { isSchemaObject, refTarget, type Schema } from './schema-walk.js';

/** One revision as codegen sees it. */
export interface RevisionSide {
  readonly model: RevisionModel;
  readonly table: RevisionTable;
}

export interface RevisionRef {
  readonly revision: string;
  readonly sha256: string;
  /** Patch ids applied before comparing. */
  readonly patches: readonly string[];
}

/** Who must declare a method's capability: a fixed side, or relative to a two-way method's sender. */
export interface CapabilityGate {
  readonly side: 'client' | 'server' | 'sender' | 'receiver';
  readonly path: string;
}

export interface MethodSummary {
  readonly method: string;
  readonly kind: 'request' | 'notification';
  readonly direction: string;
  readonly capability: CapabilityGate | null;
}

export interface Change<T> {
  readonly from: T;
  readonly to: T;
}

export interface MethodChange {
  readonly method: string;
  readonly kind?: Change<string>;
  readonly direction?: Change<string>;
  readonly capability?: Change<CapabilityGate | null>;
  readonly definition?: Change<string>;
  readonly results?: Change<readonly string[]>;
}

/** A change at `path` inside `definition` (`''` is the definition itself, `a.b[].c` a nested field). */
export type FieldChange =
  | { readonly definition: string; readonly path: string; readonly change: 'added' | 'removed'; readonly type: string; readonly required: boolean }
  | { readonly definition: string; readonly path: string; readonly change: 'required' | 'optional' }
  | { readonly definition: string; readonly path: string; readonly change: 'type'; readonly from: string; readonly to: string }
  | { readonly definition: string; readonly path: string; readonly change: 'members'; readonly added: readonly string[]; readonly removed: readonly string[] };

/** An enum gained or lost values, or a const changed (an absent side means no const there). */
export type ValueChange =
  | { readonly definition: string; readonly path: string; readonly change: 'enum'; readonly added: readonly unknown[]; readonly removed: readonly unknown[] }
  | { readonly definition: string; readonly path: string; readonly change: 'const'; readonly from?: unknown; readonly to?: unknown };

export interface ProtocolDiff {
  readonly from: RevisionRef;
  readonly to: RevisionRef;
  readonly methods: { readonly added: readonly MethodSummary[]; readonly removed: readonly MethodSummary[]; readonly changed: readonly MethodChange[] };
  readonly capabilities: { readonly client: readonly FieldChange[]; readonly server: readonly FieldChange[] };
  readonly definitions: { readonly added: readonly string[]; readonly removed: readonly string[] };
  readonly fields: readonly FieldChange[];
  readonly values: readonly ValueChange[];
}

const CAPABILITY_DEFINITIONS = { client: 'ClientCapabilities', server: 'ServerCapabilities' } as const;

/** Computes the changelog from `a` to `b`. */
export function diffRevisions(a: RevisionSide, b: RevisionSide): ProtocolDiff {
  const fields: FieldChange[] = [];
  const values: ValueChange[] = [];
  const capabilities: { client: FieldChange[]; server: FieldChange[] } = { client: [], server: [] };
  const defsA = a.model.definitions;
  const defsB = b.model.definitions;
  const capabilityNames = new Set<string>(Object.values(CAPABILITY_DEFINITIONS));
  for (const name of sortedKeys(defsA)) {
    const next = defsB[name];
    if (next === undefined) continue;
    const side = name === CAPABILITY_DEFINITIONS.client ? 'client' : name === CAPABILITY_DEFINITIONS.server ? 'server' : null;
    compareNode({ defsA, defsB, fields: side === null ? fields : capabilities[side], values }, name, [], defsA[name]!, next);
  }
  for (const [side, name] of Object.entries(CAPABILITY_DEFINITIONS) as Array<['client' | 'server', string]>) {
    const before = defsA[name];
    const after = defsB[name];
    if (before === undefined && after !== undefined) capabilities[side].push({ definition: name, path: '', change: 'added', type: describe(after, { literals: true }), required: false });
    if (before !== undefined && after === undefined) capabilities[side].push({ definition: name, path: '', change: 'removed', type: describe(before, { literals: true }), required: false });
  }
  return {
    from: refOf(a.model),
    to: refOf(b.model),
    methods: diffMethods(a.table, b.table),
    capabilities: { client: sortChanges(capabilities.client), server: sortChanges(capabilities.server) },
    definitions: {
      added: sortedKeys(defsB).filter((n) => defsA[n] === undefined && !capabilityNames.has(n)),
      removed: sortedKeys(defsA).filter((n) => defsB[n] === undefined && !capabilityNames.has(n)),
    },
    fields: sortChanges(fields),
    values: sortChanges(values),
  };
}

/** True when the two revisions differ in nothing the changelog reports. */
export function isEmptyDiff(diff: ProtocolDiff): boolean {
  const { methods, capabilities, definitions, fields, values } = diff;
  return [methods.added, methods.removed, methods.changed, capabilities.client, capabilities.server, definitions.added, definitions.removed, fields, values].every((list) => list.length === 0);
}

function refOf(model: RevisionModel): RevisionRef {
  return { revision: model.pin.revision, sha256: model.schemaSha256, patches: [...model.patches] };
}

function sortedKeys(record: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(record).sort(compareText);
}

function compareText(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

const CHANGE_ORDER = ['removed', 'added', 'required', 'optional', 'type', 'members', 'enum', 'const'];

function sortChanges<T extends { definition: string; path: string; change: string }>(list: T[]): T[] {
  return [...list].sort((x, y) => compareText(x.definition, y.definition) || comparePath(x.path, y.path) || CHANGE_ORDER.indexOf(x.change) - CHANGE_ORDER.indexOf(y.change));
}

/** Parents before children, siblings by name. */
function comparePath(x: string, y: string): number {
  const key = (path: string) => path.replace(/[.[]/g, '\u0001');
  return compareText(key(x), key(y));
}

// ---------------------------------------------------------------------------------------------
// Methods

function gateOf(spec: MethodSpec): CapabilityGate | null {
  if (spec.capability === null) return null;
  const path = spec.capability.path.join('.');
  if (spec.direction === 'both') return { side: spec.capability.holder, path };
  const sender = spec.direction === 'client-to-server' ? 'client' : 'server';
  const receiver = sender === 'client' ? 'server' : 'client';
  return { side: spec.capability.holder === 'sender' ? sender : receiver, path };
}

function summaryOf(spec: MethodSpec): MethodSummary {
  return { method: spec.method, kind: spec.kind, direction: spec.direction, capability: gateOf(spec) };
}

function sameGate(x: CapabilityGate | null, y: CapabilityGate | null): boolean {
  return x === null || y === null ? x === y : x.side === y.side && x.path === y.path;
}

function diffMethods(a: RevisionTable, b: RevisionTable): ProtocolDiff['methods'] {
  const before = new Map(a.methods.map((m) => [m.method, m]));
  const after = new Map(b.methods.map((m) => [m.method, m]));
  const added = [...after.values()].filter((m) => !before.has(m.method)).map(summaryOf);
  const removed = [...before.values()].filter((m) => !after.has(m.method)).map(summaryOf);
  const changed: MethodChange[] = [];
  for (const [method, old] of before) {
    const now = after.get(method);
    if (now === undefined) continue;
    const change: { -readonly [K in keyof MethodChange]: MethodChange[K] } = { method };
    if (old.kind !== now.kind) change.kind = { from: old.kind, to: now.kind };
    if (old.direction !== now.direction) change.direction = { from: old.direction, to: now.direction };
    const gates = { from: gateOf(old), to: gateOf(now) };
    if (!sameGate(gates.from, gates.to)) change.capability = gates;
    if (old.definition !== now.definition) change.definition = { from: old.definition, to: now.definition };
    if (old.resultDefinitions.join() !== now.resultDefinitions.join()) change.results = { from: [...old.resultDefinitions], to: [...now.resultDefinitions] };
    if (Object.keys(change).length > 1) changed.push(change);
  }
  const byMethod = (x: { method: string }, y: { method: string }) => compareText(x.method, y.method);
  return { added: added.sort(byMethod), removed: removed.sort(byMethod), changed: changed.sort(byMethod) };
}

// ---------------------------------------------------------------------------------------------
// Definitions and fields

/** `params.content[].type`; a member name that is not a plain word is quoted: `_meta["io.example/key"]`. */
function joinPath(path: readonly string[]): string {
  let out = '';
  for (const part of path) {
    if (part === '[]' || part === '*') out += out === '' ? part : part === '[]' ? '[]' : '.*';
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

function schemaProps(schema: Schema): Record<string, Schema> | null {
  return isSchemaObject(schema.properties) ? (schema.properties as Record<string, Schema>) : null;
}

function requiredSet(schema: Schema): Set<string> {
  return new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
}

/** Union members that are all `$ref`s, as definition names; null for any other shape. */
function refUnion(schema: Schema): string[] | null {
  const list = (schema.anyOf ?? schema.oneOf) as unknown;
  if (!Array.isArray(list) || list.length === 0) return null;
  const names = list.map((m) => (isSchemaObject(m) ? refTarget(m.$ref) : null));
  return names.every((n): n is string => n !== null) ? names : null;
}

interface WalkContext {
  readonly defsA: Readonly<Record<string, Schema>>;
  readonly defsB: Readonly<Record<string, Schema>>;
  readonly fields: FieldChange[];
  readonly values: ValueChange[];
}

/** Walks two versions of one schema node side by side, recording what changed. */
function compareNode(ctx: WalkContext, definition: string, path: readonly string[], a: Schema, b: Schema): void {
  const { fields, values } = ctx;
  const at = joinPath(path);
  const unionA = refUnion(a);
  const unionB = refUnion(b);
  if (unionA !== null && unionB !== null) {
    const added = unionB.filter((n) => !unionA.includes(n)).sort(compareText);
    const removed = unionA.filter((n) => !unionB.includes(n)).sort(compareText);
    if (added.length > 0 || removed.length > 0) fields.push({ definition, path: at, change: 'members', added, removed });
  } else {
    // Items and map values that both sides have are compared by the walk below, not here.
    const shallow = (isSchemaObject(a.items) && isSchemaObject(b.items)) || (isSchemaObject(a.additionalProperties) && isSchemaObject(b.additionalProperties));
    if (describe(a, { sorted: true, shallow }) !== describe(b, { sorted: true, shallow })) fields.push({ definition, path: at, change: 'type', from: describe(a), to: describe(b) });
  }
  compareValues(definition, at, a, b, values);

  // An inline object that became a definition (or the reverse) is compared with that definition's members.
  const refA = refTarget(a.$ref);
  const refB = refTarget(b.$ref);
  if (refA !== null && refB !== null) return;
  if (refA !== null && schemaProps(b) !== null) a = ctx.defsA[refA] ?? a;
  if (refB !== null && schemaProps(a) !== null) b = ctx.defsB[refB] ?? b;

  const propsA = schemaProps(a);
  const propsB = schemaProps(b);
  if (propsA !== null || propsB !== null) {
    const reqA = requiredSet(a);
    const reqB = requiredSet(b);
    const names = [...new Set([...Object.keys(propsA ?? {}), ...Object.keys(propsB ?? {})])].sort(compareText);
    for (const name of names) {
      const before = propsA?.[name];
      const after = propsB?.[name];
      const sub = joinPath([...path, name]);
      if (before === undefined && after !== undefined) fields.push({ definition, path: sub, change: 'added', type: describe(after, { literals: true }), required: reqB.has(name) });
      else if (before !== undefined && after === undefined) fields.push({ definition, path: sub, change: 'removed', type: describe(before, { literals: true }), required: reqA.has(name) });
      else if (isSchemaObject(before) && isSchemaObject(after)) {
        if (!reqA.has(name) && reqB.has(name)) fields.push({ definition, path: sub, change: 'required' });
        if (reqA.has(name) && !reqB.has(name)) fields.push({ definition, path: sub, change: 'optional' });
        compareNode(ctx, definition, [...path, name], before, after);
      }
    }
  }
  if (isSchemaObject(a.items) && isSchemaObject(b.items)) compareNode(ctx, definition, [...path, '[]'], a.items, b.items);
  if (isSchemaObject(a.additionalProperties) && isSchemaObject(b.additionalProperties)) compareNode(ctx, definition, [...path, '*'], a.additionalProperties, b.additionalProperties);
}

function compareValues(definition: string, path: string, a: Schema, b: Schema, values: ValueChange[]): void {
  const enumA = Array.isArray(a.enum) ? a.enum : null;
  const enumB = Array.isArray(b.enum) ? b.enum : null;
  if (enumA !== null || enumB !== null) {
    const key = (v: unknown) => JSON.stringify(v);
    const keysA = new Set((enumA ?? []).map(key));
    const keysB = new Set((enumB ?? []).map(key));
    const added = (enumB ?? []).filter((v) => !keysA.has(key(v)));
    const removed = (enumA ?? []).filter((v) => !keysB.has(key(v)));
    if (added.length > 0 || removed.length > 0) values.push({ definition, path, change: 'enum', added, removed });
  }
  const hasA = Object.hasOwn(a, 'const');
  const hasB = Object.hasOwn(b, 'const');
  if ((hasA || hasB) && JSON.stringify(a.const) !== JSON.stringify(b.const)) {
    values.push({ definition, path, change: 'const', ...(hasA ? { from: a.const } : {}), ...(hasB ? { to: b.const } : {}) });
  }
}

// ---------------------------------------------------------------------------------------------
// Type descriptions

/** How `describe` renders: `sorted` orders union members so equal types compare equal; `shallow` leaves array items and map values out (the walk compares them on their own); `literals` shows const and enum values instead of their JSON type. */
export interface DescribeMode {
  readonly sorted?: boolean;
  readonly shallow?: boolean;
  readonly literals?: boolean;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value;
}

function union(parts: readonly string[], mode: DescribeMode): string {
  const unique = [...new Set(parts)];
  return (mode.sorted === true ? unique.sort(compareText) : unique).join(' | ');
}

function wrap(text: string): string {
  return /[ |&]/.test(text) ? `(${text})` : text;
}

/**
 * A short TypeScript-like rendering of what a schema node accepts: `string | number`,
 * `TextContent[]`, `Record<string, unknown>`, `string (uri)`. Unless `literals` is set, enum
 * and const values are rendered as their JSON type, since the changelog reports values on their own.
 */
export function describe(schema: unknown, mode: DescribeMode = {}): string {
  if (!isSchemaObject(schema)) return schema === false ? 'never' : 'unknown';
  const target = refTarget(schema.$ref);
  if (target !== null) return target;
  const inner = { ...mode, shallow: false };
  const members = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(members)) {
    // Alternatives that only list required members constrain presence, not the type.
    const typed = members.filter((m) => !(isSchemaObject(m) && Object.keys(m).every((k) => k === 'required')));
    if (typed.length > 0) return union(typed.map((m) => wrap(describe(m, inner))), mode);
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((m) => wrap(describe(m, inner))).join(' & ');
  if (Object.hasOwn(schema, 'const')) return mode.literals === true ? JSON.stringify(schema.const) : jsonType(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map((v) => (mode.literals === true ? JSON.stringify(v) : jsonType(v))), mode);
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) return schema.properties !== undefined ? 'object' : schema.items !== undefined ? describeArray(schema, mode) : 'unknown';
  return union(
    types.map((type) => {
      if (type === 'array') return describeArray(schema, mode);
      if (type === 'object') return describeObject(schema, mode);
      if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
      return type;
    }),
    mode,
  );
}

function describeArray(schema: Schema, mode: DescribeMode): string {
  if (!isSchemaObject(schema.items)) return 'unknown[]';
  return mode.shallow === true ? '…[]' : `${wrap(describe(schema.items, mode))}[]`;
}

function describeObject(schema: Schema, mode: DescribeMode): string {
  if (schema.properties !== undefined || !isSchemaObject(schema.additionalProperties)) return 'object';
  return `Record<string, ${mode.shallow === true ? '…' : describe(schema.additionalProperties, mode)}>`;
}
