import type { MethodSpec } from './method-spec.js';
import type { RevisionTable } from './method-table.js';
import type { RevisionModel } from './model.js';
import { compileValidators, type SharedValidators, sharedImport, supportImport, type ValidatorTarget, validatorExport } from './emit-validators.js';

/** Names of values the revision index exports beside one type per definition. */
export const VALUE_EXPORTS = ['revision', 'era', 'status', 'schemaSha256', 'methods', 'Method', 'ErrorCode', 'revisionModule', 'clientStubs', 'serverStubs', 'clientNotifiers', 'serverNotifiers'] as const;

/** Names of the types the revision index exports beside one type per definition. */
export const TYPE_EXPORTS = ['ProtocolTypes', 'ClientRequestMap', 'ServerRequestMap', 'InputRequestMap', 'ClientNotificationMap', 'ServerNotificationMap', 'ClientStubs', 'ServerStubs', 'ClientNotifiers', 'ServerNotifiers'] as const;

function q(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function validatorName(target: string): string {
  return `validate${target.replace(/\.params$/, 'Params').replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** The validator target name for a method's inline params. */
export function inlineParamsTarget(spec: MethodSpec): string {
  return `${spec.definition}.${spec.method.replace(/[^A-Za-z0-9]/g, '_')}.params`;
}

function paramsValidatorTarget(spec: MethodSpec): string | null {
  if (spec.paramsDefinition !== null) return spec.paramsDefinition;
  if (spec.paramsSchema !== null) return inlineParamsTarget(spec);
  return null;
}

/**
 * `validators.ts`: one typed validator per definition, compiled into this file, except the
 * definitions in `shared` (the ones extensions share), whose checks this file imports and whose
 * validators it re-exports.
 */
export function emitValidatorsFile(model: RevisionModel, table: RevisionTable, targets: readonly ValidatorTarget[], shared: SharedValidators | null = null): string {
  const imported = shared?.checks ?? new Map<string, string>();
  const own = targets.filter((target) => !(imported.has(target.name) && model.definitions[target.name] === target.schema));
  const compiled = compileValidators({ revision: model.pin.revision, definitions: model.definitions, targets: own, imported, importedInline: shared?.inline });
  const reexported = Object.keys(model.definitions).filter((name) => imported.has(name));
  const lines = [
    supportImport(compiled, '../shared/validator-support.js'),
    ...(shared !== null && compiled.importedUsed.length > 0 ? [sharedImport(shared, compiled.importedUsed, 1)] : []),
    `import type * as T from './types.js';`,
    '',
    ...(shared !== null && reexported.length > 0 ? [`/** Validators of the definitions this revision shares with its extensions. */`, sharedImport(shared, reexported.map(validatorName), 1, 'export'), ''] : []),
  ];
  for (const name of Object.keys(model.definitions)) {
    if (imported.has(name)) continue;
    lines.push(`/** Checks a value against the \`${name}\` definition. */`);
    lines.push(validatorExport(validatorName(name), compiled.checkOf.get(name)!, `T.${name}`));
  }
  for (const spec of table.methods) {
    if (spec.paramsDefinition !== null || spec.paramsSchema === null) continue;
    const target = inlineParamsTarget(spec);
    lines.push(`/** Checks the inline \`params\` of \`${spec.method}\`. */`);
    lines.push(validatorExport(validatorName(target), compiled.checkOf.get(target)!, `NonNullable<T.${spec.definition}['params']>`));
  }
  return `${lines.join('\n')}\n\n${compiled.code}\n`;
}

function paramsType(spec: MethodSpec): string {
  if (spec.paramsDefinition !== null) return `T.${spec.paramsDefinition}`;
  if (spec.paramsSchema !== null) return `NonNullable<T.${spec.definition}['params']>`;
  return 'undefined';
}

function resultValidatorExpr(model: RevisionModel, spec: MethodSpec): string {
  const [final, ...others] = spec.resultDefinitions;
  if (others.length === 0) return validatorName(final!);
  const members = others.map((name) => {
    const resultType = model.definitions[name]?.properties as Record<string, { const?: unknown }> | undefined;
    const value = resultType?.resultType?.const;
    if (typeof value !== 'string') {
      throw new Error(`revision ${model.pin.revision}: result ${name} of ${spec.method} has no resultType const to dispatch on; patch the schema`);
    }
    return `${q(value)}: ${validatorName(name)}`;
  });
  return `byResultType({ ${members.join(', ')} }, ${validatorName(final!)})`;
}

/** Whether `side` sends `spec` as a JSON-RPC request (embedded input requests are not sent). */
export function requestSender(spec: MethodSpec, side: 'client' | 'server'): boolean {
  return spec.kind === 'request' && !spec.embedded && (spec.direction === 'both' || spec.direction === (side === 'client' ? 'client-to-server' : 'server-to-client'));
}

/** Whether `side` sends notification `spec`. */
export function notificationSender(spec: MethodSpec, side: 'client' | 'server'): boolean {
  return spec.kind === 'notification' && (spec.direction === 'both' || spec.direction === (side === 'client' ? 'client-to-server' : 'server-to-client'));
}

const embeddedRequest = (spec: MethodSpec) => spec.kind === 'request' && spec.embedded;

/** The values of the method-table members most methods share, as emitted (see emitMethodsFile). */
const COMMON_MEMBERS: Readonly<Record<string, string>> = { embedded: 'false', pagination: 'null', cacheable: 'false', nameHeader: 'null' };

/** `methods.ts`: the method table, per-direction type maps and typed stubs. */
export function emitMethodsFile(model: RevisionModel, table: RevisionTable): string {
  const used = new Set<string>();
  const entries: string[] = [];
  let needsDispatch = false;
  for (const spec of table.methods) {
    const pTarget = paramsValidatorTarget(spec);
    const params = pTarget === null ? 'acceptAbsent' : validatorName(pTarget);
    if (pTarget !== null) used.add(params);
    let result = 'null';
    if (spec.kind === 'request') {
      result = resultValidatorExpr(model, spec);
      if (result.startsWith('byResultType')) needsDispatch = true;
      for (const name of spec.resultDefinitions) used.add(validatorName(name));
    }
    // Members most methods share come from `common`; a row names them only where it differs.
    const shared: [string, string][] = [
      ['embedded', `${spec.embedded}`],
      ['pagination', spec.paginatedField === null ? 'null' : `{ itemsField: ${q(spec.paginatedField)} }`],
      ['cacheable', `${spec.cacheable}`],
      ['nameHeader', spec.nameHeader === null ? 'null' : q(spec.nameHeader)],
    ];
    entries.push(
      [
        `  ${q(spec.method)}: {`,
        '    ...common,',
        `    method: ${q(spec.method)},`,
        `    kind: ${q(spec.kind)},`,
        `    direction: ${q(spec.direction)},`,
        `    definition: ${q(spec.definition)},`,
        `    paramsDefinition: ${spec.paramsDefinition === null ? 'null' : q(spec.paramsDefinition)},`,
        `    paramsRequired: ${spec.paramsRequired},`,
        `    params: ${params},`,
        `    resultDefinitions: [${spec.resultDefinitions.map(q).join(', ')}],`,
        `    result: ${result},`,
        `    capability: ${spec.capability === null ? 'null' : `{ holder: ${q(spec.capability.holder)}, path: [${spec.capability.path.map(q).join(', ')}] }`},`,
        ...shared.filter(([name, value]) => value !== COMMON_MEMBERS[name]).map(([name, value]) => `    ${name}: ${value},`),
        '  },',
      ].join('\n'),
    );
  }
  const needsAbsent = table.methods.some((m) => paramsValidatorTarget(m) === null);
  const out: string[] = [
    `import type { MethodInfo${needsAbsent ? ', Validator' : ''} } from '../contract.js';`,
    ...(needsDispatch ? [`import { byResultType } from '../shared/validator-support.js';`] : []),
    `import type * as T from './types.js';`,
    `import { ${[...used].sort().join(', ')} } from './validators.js';`,
    '',
  ];
  if (needsAbsent) {
    out.push('/** Methods whose schema declares no params accept only absent params (the runtime never calls this with a value). */');
    out.push(`const acceptAbsent = ((value: unknown) => value === undefined) as Validator<undefined>;`, '');
  }
  out.push(
    '/**',
    ' * What most methods share, spread first into each row so that every row has its members in one',
    ' * order; every program carries its revision\'s table, so each repeated member is bytes in it.',
    ' */',
    `const common = { ${Object.entries(COMMON_MEMBERS).map(([name, value]) => `${name}: ${value}`).join(', ')} } as const;`,
    '',
  );
  out.push('/** Every request and notification of this revision, keyed by method name. */');
  out.push(`export const methods = {\n${entries.join('\n')}\n} as const satisfies Readonly<Record<string, MethodInfo>>;`, '');
  out.push('/** A method name of this revision. */', 'export type Method = keyof typeof methods;', '');


  const requestMap = (name: string, doc: string, pick: (s: MethodSpec) => boolean) => {
    const rows = table.methods.filter(pick).map((s) => `  ${q(s.method)}: { params: ${paramsType(s)}; paramsRequired: ${s.paramsRequired}; result: T.${s.resultDefinitions[0]} };`);
    // A type alias, not an interface, so a map is assignable to an index-signature constraint.
    out.push(`/** ${doc} */`, `export type ${name} = {\n${rows.join('\n')}${rows.length ? '\n' : ''}};`, '');
  };
  const notificationMap = (name: string, doc: string, pick: (s: MethodSpec) => boolean) => {
    const rows = table.methods.filter(pick).map((s) => `  ${q(s.method)}: { params: ${paramsType(s)}; paramsRequired: ${s.paramsRequired} };`);
    out.push(`/** ${doc} */`, `export type ${name} = {\n${rows.join('\n')}${rows.length ? '\n' : ''}};`, '');
  };
  requestMap('ClientRequestMap', 'Requests a client sends (and a server handles): params and final result per method.', (s) => requestSender(s, 'client'));
  requestMap('ServerRequestMap', 'Requests a server sends (and a client handles) as JSON-RPC requests.', (s) => requestSender(s, 'server'));
  requestMap('InputRequestMap', 'Requests a server embeds in an InputRequiredResult (2026 era); the client answers them in `inputResponses`.', embeddedRequest);
  notificationMap('ClientNotificationMap', 'Notifications a client sends.', (s) => notificationSender(s, 'client'));
  notificationMap('ServerNotificationMap', 'Notifications a server sends.', (s) => notificationSender(s, 'server'));
  out.push(
    '/** The method maps of this revision in one type, for typing a Client or Server pinned to it. */',
    'export interface ProtocolTypes {',
    '  clientRequests: ClientRequestMap;',
    '  serverRequests: ServerRequestMap;',
    '  clientNotifications: ClientNotificationMap;',
    '  serverNotifications: ServerNotificationMap;',
    '  inputRequests: InputRequestMap;',
    ...(model.definitions.ClientCapabilities ? ['  clientCapabilities: T.ClientCapabilities;'] : []),
    ...(model.definitions.ServerCapabilities ? ['  serverCapabilities: T.ServerCapabilities;'] : []),
    '}',
    '',
  );

  const stubs = (iface: string, factory: string, doc: string, pick: (s: MethodSpec) => boolean, kind: 'request' | 'notification') => {
    const picked = table.methods.filter(pick);
    const sig = (s: MethodSpec) => {
      const p = paramsType(s);
      const paramArg = p === 'undefined' ? 'params?: undefined' : `params${s.paramsRequired ? '' : '?'}: ${p}`;
      const ret = kind === 'request' ? `Promise<T.${s.resultDefinitions[0]}>` : 'Promise<void>';
      return { paramArg, ret };
    };
    const members = picked.map((s) => {
      const { paramArg, ret } = sig(s);
      return `  /** Sends \`${s.method}\`. */\n  ${s.stubName}(${paramArg}, options?: O): ${ret};`;
    });
    out.push(`/** ${doc} */`, `export interface ${iface}<O = unknown> {\n${members.join('\n')}${members.length ? '\n' : ''}}`, '');
    const impl = picked.map((s) => {
      const { ret } = sig(s);
      return `    ${s.stubName}: (params, options) => send(${q(s.method)}, params, options) as ${ret},`;
    });
    out.push(
      `/** Binds the ${iface} stubs to a generic sender. */`,
      `export function ${factory}<O>(send: (method: string, params: unknown, options?: O) => Promise<unknown>): ${iface}<O> {`,
      `  return {\n${impl.join('\n')}${impl.length ? '\n' : ''}  };`,
      '}',
      '',
    );
  };
  stubs('ClientStubs', 'clientStubs', 'Typed senders for every request a client may send.', (s) => requestSender(s, 'client'), 'request');
  stubs('ServerStubs', 'serverStubs', 'Typed senders for every JSON-RPC request a server may send.', (s) => requestSender(s, 'server'), 'request');
  stubs('ClientNotifiers', 'clientNotifiers', 'Typed senders for every notification a client may send.', (s) => notificationSender(s, 'client'), 'notification');
  stubs('ServerNotifiers', 'serverNotifiers', 'Typed senders for every notification a server may send.', (s) => notificationSender(s, 'server'), 'notification');
  return `${out.join('\n').trimEnd()}\n`;
}

/** `errors.ts`: error code constants, each with the spec page that defines it. */
export function emitErrorsFile(table: RevisionTable): string {
  const rows = table.errorCodes.map((c) => `  /** ${c.cite} */\n  ${c.name}: ${c.code},`);
  return `/** JSON-RPC and MCP error codes of this revision. */\nexport const ErrorCode = {\n${rows.join('\n')}\n} as const;\n\n/** One of this revision's error codes. */\nexport type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];\n`;
}

/** The RevisionFeatures object literal of a revision. */
export function featuresLiteral(table: RevisionTable): string {
  const { primingEvents, ssePolling, resumableStreams } = table.features;
  return `{ primingEvents: ${primingEvents}, ssePolling: ${ssePolling}, resumableStreams: ${resumableStreams} }`;
}

/** `index.ts`: the revision's public surface and its RevisionModule. */
export function emitIndexFile(model: RevisionModel, table: RevisionTable): string {
  const defs = Object.keys(model.definitions).map((n) => `    ${n}: ${validatorName(n)},`);
  return [
    `import type { RevisionModule } from '../contract.js';`,
    `import { ErrorCode } from './errors.js';`,
    `import { methods } from './methods.js';`,
    `import { ${Object.keys(model.definitions).map(validatorName).join(', ')} } from './validators.js';`,
    '',
    `export type * from './types.js';`,
    `export * from './validators.js';`,
    `export * from './methods.js';`,
    `export * from './errors.js';`,
    '',
    `/** The protocol revision this module was generated from. */`,
    `export const revision = ${q(model.pin.revision)};`,
    `/** The protocol era of this revision. */`,
    `export const era = ${q(model.pin.era)};`,
    `/** Whether the revision is released or a moving draft. */`,
    `export const status = ${q(model.pin.status)};`,
    `/** sha256 of the upstream schema.json. */`,
    `export const schemaSha256 = ${q(model.schemaSha256)};`,
    '',
    `/** Everything the runtime needs to speak this revision. */`,
    `export const revisionModule: RevisionModule = {`,
    `  revision,`,
    `  era,`,
    `  status,`,
    `  schemaSha256,`,
    `  methods,`,
    `  errorCodes: ErrorCode,`,
    `  batching: ${table.batching},`,
    `  features: ${featuresLiteral(table)},`,
    `  loggingLevels: [${table.loggingLevels.map(q).join(', ')}],`,
    `  definitions: {`,
    ...defs,
    `  },`,
    `};`,
    '',
  ].join('\n');
}
