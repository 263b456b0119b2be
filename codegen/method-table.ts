import { buildChangeNotifications, type ChangeNotificationSpec } from './change-notifications.js';
import { revisionFeatures } from './revision-features.js';
import { CAPABILITY_OVERLAY, ERROR_CODE_OVERLAY, LOGGING_SEVERITY_ORDER, STUB_NAME_OVERLAY } from './overlay.js';
import { CodegenError, type RevisionModel } from './model.js';
import { nameHeaderMember } from './name-header.js';
import { isSchemaObject, refTarget, type Schema } from './schema-walk.js';
import type { MethodSpec } from './method-spec.js';
import type { RevisionFeatures } from './templates/contract.js';

export interface RevisionTable {
  readonly methods: readonly MethodSpec[];
  readonly errorCodes: ReadonlyArray<{ readonly name: string; readonly code: number; readonly cite: string }>;
  readonly batching: boolean;
  /** Transport features (priming events, SSE polling, resumable streams). */
  readonly features: RevisionFeatures;
  /** The notifications that make cached results stale, by notification method. */
  readonly changeNotifications: readonly ChangeNotificationSpec[];
  /** The schema's LoggingLevel values, least severe first; empty when it has none. */
  readonly loggingLevels: readonly string[];
  readonly warnings: readonly string[];
}

const UNIONS: ReadonlyArray<{ name: string; kind: 'request' | 'notification'; from: 'client' | 'server'; embedded: boolean }> = [
  { name: 'ClientRequest', kind: 'request', from: 'client', embedded: false },
  { name: 'ServerRequest', kind: 'request', from: 'server', embedded: false },
  { name: 'InputRequest', kind: 'request', from: 'server', embedded: true },
  { name: 'ClientNotification', kind: 'notification', from: 'client', embedded: false },
  { name: 'ServerNotification', kind: 'notification', from: 'server', embedded: false },
];

/** Members of a union definition: `anyOf`/`oneOf` entries, or the definition itself when collapsed. */
function unionMembers(model: RevisionModel, unionName: string): Array<{ name: string | null; schema: Schema }> {
  const union = model.definitions[unionName]!;
  const list = (union.anyOf ?? union.oneOf) as unknown[] | undefined;
  const entries = list ?? [union];
  return entries.map((entry) => {
    if (!isSchemaObject(entry)) throw new CodegenError(`revision ${model.pin.revision}: definition ${unionName} has a non-object member`);
    const target = refTarget(entry.$ref);
    if (target !== null) return { name: target, schema: model.definitions[target]! };
    return { name: null, schema: entry };
  });
}

function methodConst(schema: Schema): string | null {
  const props = schema.properties;
  if (!isSchemaObject(props) || !isSchemaObject(props.method)) return null;
  return typeof props.method.const === 'string' ? props.method.const : null;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function stubNameFor(kind: 'request' | 'notification', definition: string, method: string): string {
  const override = STUB_NAME_OVERLAY[definition];
  if (override !== undefined) return override;
  if (kind === 'request' && definition.endsWith('Request')) return lowerFirst(definition.slice(0, -'Request'.length));
  if (kind === 'notification' && definition.endsWith('Notification')) return `notify${definition.slice(0, -'Notification'.length)}`;
  const camel = method.split(/[/_]/).map((part, i) => (i === 0 ? part : part.charAt(0).toUpperCase() + part.slice(1))).join('');
  return kind === 'notification' ? `notify${camel.charAt(0).toUpperCase()}${camel.slice(1)}` : camel;
}

/** Result definitions per the naming rule: `<B>ResultResponse`.result members, else `<B>Result`, else `EmptyResult`. */
function resultDefinitions(model: RevisionModel, definition: string): string[] {
  const base = definition.endsWith('Request') ? definition.slice(0, -'Request'.length) : definition;
  const response = model.definitions[`${base}ResultResponse`];
  if (response !== undefined) {
    const result = isSchemaObject(response.properties) ? response.properties.result : undefined;
    if (!isSchemaObject(result)) throw new CodegenError(`revision ${model.pin.revision}: definition ${base}ResultResponse has no result property`);
    const members = ((result.anyOf ?? result.oneOf) as unknown[] | undefined) ?? [result];
    const names = members.map((m) => (isSchemaObject(m) ? refTarget(m.$ref) : null));
    if (names.some((n) => n === null)) {
      throw new CodegenError(`revision ${model.pin.revision}: definition ${base}ResultResponse has a result member that is not a definition reference`);
    }
    const finals = (names as string[]).filter((n) => n !== 'InputRequiredResult');
    return [...finals, ...(names as string[]).filter((n) => n === 'InputRequiredResult')];
  }
  if (model.definitions[`${base}Result`] !== undefined) return [`${base}Result`];
  if (model.definitions.EmptyResult !== undefined) return ['EmptyResult'];
  throw new CodegenError(`revision ${model.pin.revision}: definition ${definition}: cannot derive its result (no ${base}ResultResponse, ${base}Result or EmptyResult)`);
}

/** The single array property of a result that also carries `nextCursor`: the page's items. */
function paginatedField(model: RevisionModel, resultName: string): string | null {
  const props = model.definitions[resultName]?.properties;
  if (!isSchemaObject(props) || props.nextCursor === undefined) return null;
  const arrays = Object.entries(props).filter(([, value]) => isSchemaObject(value) && value.type === 'array').map(([key]) => key);
  if (arrays.length !== 1) throw new CodegenError(`revision ${model.pin.revision}: definition ${resultName} has nextCursor but ${arrays.length} array properties; codegen cannot tell which holds the page`);
  return arrays[0]!;
}

/** Whether a result definition requires both cache hint fields. */
function requiresCacheHints(model: RevisionModel, resultName: string): boolean {
  const required = model.definitions[resultName]?.required;
  return Array.isArray(required) && required.includes('ttlMs') && required.includes('cacheScope');
}

function capabilityExists(model: RevisionModel, side: 'client' | 'server', path: readonly string[]): boolean {
  const props = model.definitions[side === 'client' ? 'ClientCapabilities' : 'ServerCapabilities']?.properties;
  return isSchemaObject(props) && props[path[0]!] !== undefined;
}

/** Derives the method table of a revision from its request/notification unions and the overlay. */
export function buildTable(model: RevisionModel): RevisionTable {
  const warnings: string[] = [];
  // The eras differ by the handshake (see revisionFeatures).
  const stateless = model.definitions.InitializeRequest === undefined;
  const byMethod = new Map<string, { spec: Omit<MethodSpec, 'direction'>; from: Set<'client' | 'server'>; gate: { side: 'client' | 'server'; path: readonly string[] } | null }>();
  for (const union of UNIONS) {
    if (model.definitions[union.name] === undefined) continue;
    for (const member of unionMembers(model, union.name)) {
      const method = methodConst(member.schema);
      if (method === null) {
        throw new CodegenError(`revision ${model.pin.revision}: definition ${member.name ?? union.name} (member of ${union.name}) has no properties.method.const`);
      }
      let definition = member.name;
      if (definition === null) {
        definition = Object.keys(model.definitions).find((n) => n !== union.name && methodConst(model.definitions[n]!) === method && !UNIONS.some((u) => u.name === n)) ?? union.name;
      }
      const existing = byMethod.get(method);
      if (existing) {
        existing.from.add(union.from);
        continue;
      }
      const params = isSchemaObject(member.schema.properties) ? member.schema.properties.params : undefined;
      const paramsDefinition = isSchemaObject(params) ? refTarget(params.$ref) : null;
      const required = Array.isArray(member.schema.required) ? member.schema.required : [];
      const overlay = CAPABILITY_OVERLAY[method];
      let gate: { side: 'client' | 'server'; path: readonly string[] } | null = null;
      if (overlay === undefined) warnings.push(`revision ${model.pin.revision}: method ${method} has no capability overlay entry; treating it as ungated`);
      else if (overlay !== null && capabilityExists(model, overlay.side, overlay.path)) gate = { side: overlay.side, path: overlay.path };
      const results = union.kind === 'request' ? resultDefinitions(model, definition) : [];
      byMethod.set(method, {
        gate,
        from: new Set([union.from]),
        spec: {
          method,
          kind: union.kind,
          embedded: union.embedded,
          definition,
          paramsDefinition,
          paramsSchema: paramsDefinition === null && isSchemaObject(params) ? params : null,
          paramsRequired: required.includes('params'),
          resultDefinitions: results,
          capability: null,
          paginatedField: results.length > 0 ? paginatedField(model, results[0]!) : null,
          cacheable: results.length > 0 && requiresCacheHints(model, results[0]!),
          stubName: stubNameFor(union.kind, definition, method),
          nameHeader: nameHeaderMember(model, { definition, kind: union.kind, embedded: union.embedded, params: isSchemaObject(params) ? params : null, stateless }),
        },
      });
    }
  }
  const methods = [...byMethod.values()]
    .map(({ spec, from, gate }): MethodSpec => {
      const both = from.size === 2;
      // Two-way methods follow the usual rule; a one-way method's overlay side tells whose flag it is.
      const holder = both ? (spec.kind === 'request' ? 'receiver' : 'sender') : from.has(gate?.side ?? 'client') ? 'sender' : 'receiver';
      return {
        ...spec,
        direction: both ? 'both' : from.has('client') ? 'client-to-server' : 'server-to-client',
        capability: gate === null ? null : { holder, path: gate.path },
      };
    })
    .sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));

  const changeNotifications = buildChangeNotifications(model, methods, warnings);
  const features = revisionFeatures(model, methods, warnings);
  return { methods, errorCodes: errorCodes(model), batching: allowsBatches(model), features, changeNotifications, loggingLevels: loggingLevels(model), warnings };
}

function screamingSnake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/** Overlay codes in force for the revision, cross-checked against the schema's own `*Error` definitions. */
function errorCodes(model: RevisionModel): Array<{ name: string; code: number; cite: string }> {
  const revision = model.pin.revision;
  const codes = new Map<string, { name: string; code: number; cite: string }>();
  for (const entry of ERROR_CODE_OVERLAY) {
    if (revision < entry.since || (entry.until !== undefined && revision > entry.until)) continue;
    codes.set(entry.name, { name: entry.name, code: entry.code, cite: entry.cite });
  }
  for (const [defName, def] of Object.entries(model.definitions)) {
    if (!defName.endsWith('Error')) continue;
    const code = isSchemaObject(def.properties) && isSchemaObject(def.properties.code) ? def.properties.code.const : undefined;
    if (typeof code !== 'number') continue;
    const name = screamingSnake(defName.slice(0, -'Error'.length));
    const known = [...codes.values()].find((c) => c.code === code);
    if (known === undefined) {
      throw new CodegenError(`revision ${revision}: definition ${defName} declares error code ${code}, which codegen/overlay.ts does not list as ${name}; add it with a citation`);
    }
  }
  return [...codes.values()].sort((a, b) => a.code - b.code);
}

/** LoggingLevel's enum in severity order, which the overlay supplies and the schema's set confirms. */
function loggingLevels(model: RevisionModel): string[] {
  const values = model.definitions.LoggingLevel?.enum;
  if (!Array.isArray(values)) return [];
  const schemaSet = [...values].map(String).sort();
  if (schemaSet.join() !== [...LOGGING_SEVERITY_ORDER].sort().join()) {
    throw new CodegenError(`revision ${model.pin.revision}: definition LoggingLevel lists ${schemaSet.join(', ')}, which differs from LOGGING_SEVERITY_ORDER in codegen/overlay.ts`);
  }
  return [...LOGGING_SEVERITY_ORDER];
}

/** Batches are allowed where JSONRPCMessage admits an array. */
function allowsBatches(model: RevisionModel): boolean {
  const message = model.definitions.JSONRPCMessage;
  const members = ((message?.anyOf ?? message?.oneOf) as unknown[] | undefined) ?? [];
  return members.some((m) => {
    if (!isSchemaObject(m)) return false;
    const target = refTarget(m.$ref);
    const schema = target !== null ? model.definitions[target] : m;
    return schema?.type === 'array' || schema?.items !== undefined;
  });
}
