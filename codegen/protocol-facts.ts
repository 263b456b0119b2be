/**
 * The types runtime/ relies on, under names that do not move when a schema renames a
 * definition. Each name is a path from a method (its params or its final result) through the
 * schema: `Tool` is the item type of the `tools` array of the `tools/list` result, whatever the
 * schema calls that definition. A revision whose schema lacks a path fails codegen with the
 * fact it lacks, instead of generating a tree the runtime cannot compile against.
 */
import type { RevisionTable } from './method-table.js';
import { CodegenError, type RevisionModel } from './model.js';
import { isSchemaObject, refTarget, type Schema } from './schema-walk.js';

/** One step of a fact's path: a property, the items of an array, or the union member whose property is a const. */
export type FactStep = string | '[]' | { readonly member: { readonly property: string; readonly value: string } };

/** Where a fact's path starts: a method's params or final result, or another fact of the same list. */
export type FactStart = { readonly params: string } | { readonly result: string } | { readonly fact: string };

/** A name the runtime uses and the path through the schema that defines it. */
export interface ProtocolFact {
  readonly name: string;
  readonly from: FactStart;
  readonly path: readonly FactStep[];
}

const fact = (name: string, from: FactStart, ...path: FactStep[]): ProtocolFact => ({ name, from, path });
const params = (method: string): FactStart => ({ params: method });
const result = (method: string): FactStart => ({ result: method });
const of = (name: string): FactStart => ({ fact: name });
const member = (property: string, value: string): FactStep => ({ member: { property, value } });

/** What runtime/ names in the newest released stateful revision (`generated/protocol/stateful.ts`). */
export const STATEFUL_FACTS: readonly ProtocolFact[] = [
  fact('InitializeRequestParams', params('initialize')),
  fact('InitializeResult', result('initialize')),
  fact('ClientCapabilities', params('initialize'), 'capabilities'),
  fact('ServerCapabilities', result('initialize'), 'capabilities'),
  fact('Implementation', result('initialize'), 'serverInfo'),
  fact('SetLevelRequestParams', params('logging/setLevel')),
  fact('LoggingLevel', params('logging/setLevel'), 'level'),
  fact('LoggingMessageNotificationParams', params('notifications/message')),
  fact('CallToolRequestParams', params('tools/call')),
  fact('CallToolResult', result('tools/call')),
  fact('ContentBlock', result('tools/call'), 'content', '[]'),
  fact('Tool', result('tools/list'), 'tools', '[]'),
  fact('ToolAnnotations', of('Tool'), 'annotations'),
  fact('ToolExecution', of('Tool'), 'execution'),
  fact('Icon', of('Tool'), 'icons', '[]'),
  fact('Resource', result('resources/list'), 'resources', '[]'),
  fact('Annotations', of('Resource'), 'annotations'),
  fact('ResourceTemplate', result('resources/templates/list'), 'resourceTemplates', '[]'),
  fact('ReadResourceResult', result('resources/read')),
  fact('Prompt', result('prompts/list'), 'prompts', '[]'),
  fact('PromptArgument', of('Prompt'), 'arguments', '[]'),
  fact('GetPromptRequestParams', params('prompts/get')),
  fact('GetPromptResult', result('prompts/get')),
  fact('CompleteRequestParams', params('completion/complete')),
  fact('CompleteResult', result('completion/complete')),
  fact('CreateMessageRequestParams', params('sampling/createMessage')),
  fact('CreateMessageResult', result('sampling/createMessage')),
  fact('ElicitRequestParams', params('elicitation/create')),
  fact('ElicitRequestFormParams', params('elicitation/create'), member('mode', 'form')),
  fact('ElicitRequestURLParams', params('elicitation/create'), member('mode', 'url')),
  fact('ElicitResult', result('elicitation/create')),
  fact('Root', result('roots/list'), 'roots', '[]'),
];

/** What runtime/ names in the newest released stateless revision (`generated/protocol/stateless.ts`). */
export const STATELESS_FACTS: readonly ProtocolFact[] = [
  fact('ClientCapabilities', params('server/discover'), '_meta', 'io.modelcontextprotocol/clientCapabilities'),
  fact('LoggingLevel', params('server/discover'), '_meta', 'io.modelcontextprotocol/logLevel'),
  fact('DiscoverResult', result('server/discover')),
  fact('SubscriptionFilter', params('subscriptions/listen'), 'notifications'),
];

function q(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A point in a walk: the schema node, the TypeScript type naming it, and words for messages. */
interface Cursor {
  readonly schema: Schema;
  readonly type: string;
  readonly where: string;
}

/** A fact resolved to a type expression over the revision's `types.ts` (imported as `T`). */
export interface ResolvedFact {
  readonly name: string;
  readonly type: string;
  /** The derivation in words, for the doc comment. */
  readonly derivation: string;
}

function describeStart(from: FactStart): string {
  if ('params' in from) return `the params of \`${from.params}\``;
  if ('result' in from) return `the \`${from.result}\` result`;
  return from.fact;
}

function describeStep(step: FactStep): string {
  if (step === '[]') return 'items';
  if (typeof step === 'string') return `.${step}`;
  return `member with ${step.member.property} '${step.member.value}'`;
}

/**
 * Resolves every fact against one revision, in order (a fact may start from an earlier one).
 * Throws a CodegenError naming the first fact whose path the schema lacks.
 */
export function resolveFacts(model: RevisionModel, table: RevisionTable, facts: readonly ProtocolFact[]): ResolvedFact[] {
  const revision = model.pin.revision;
  const resolved = new Map<string, Cursor>();
  const out: ResolvedFact[] = [];
  for (const entry of facts) {
    const derivation = [describeStart(entry.from), ...entry.path.map(describeStep)].join(' → ');
    const fail = (reason: string): never => {
      throw new CodegenError(`revision ${revision}: the runtime needs ${entry.name} (${derivation}), but ${reason}; map the renamed path in codegen/protocol-facts.ts or patch the schema`);
    };
    const named = (name: string, where: string): Cursor => {
      const schema = model.definitions[name];
      if (schema === undefined) return fail(`${where} refers to the missing definition ${name}`);
      return { schema, type: `T.${name}`, where: `definition ${name}` };
    };
    // Follows $refs, so the type names the definition rather than a path into its parent.
    const deref = (cursor: Cursor): Cursor => {
      let current = cursor;
      for (let target = refTarget(current.schema.$ref); target !== null; target = refTarget(current.schema.$ref)) current = named(target, current.where);
      return current;
    };
    let cursor: Cursor;
    if ('fact' in entry.from) {
      const start = resolved.get(entry.from.fact);
      if (start === undefined) throw new CodegenError(`codegen/protocol-facts.ts: ${entry.name} starts from ${entry.from.fact}, which is not listed before it`);
      cursor = start;
    } else {
      const method = 'params' in entry.from ? entry.from.params : entry.from.result;
      const spec = table.methods.find((m) => m.method === method && m.kind === 'request') ?? table.methods.find((m) => m.method === method);
      if (spec === undefined) fail(`the revision has no method ${method}`);
      if ('result' in entry.from) {
        const final = spec!.resultDefinitions[0];
        if (final === undefined) fail(`${method} has no result`);
        cursor = named(final!, `the ${method} result`);
      } else if (spec!.paramsDefinition !== null) {
        cursor = named(spec!.paramsDefinition, `the params of ${method}`);
      } else if (spec!.paramsSchema !== null) {
        cursor = { schema: spec!.paramsSchema, type: `NonNullable<T.${spec!.definition}['params']>`, where: `the params of ${method}` };
      } else {
        cursor = fail(`${method} declares no params`);
      }
    }
    for (const step of entry.path) {
      cursor = deref(cursor);
      if (step === '[]') {
        if (cursor.schema.type !== 'array' || !isSchemaObject(cursor.schema.items)) fail(`${cursor.where} is not an array`);
        cursor = { schema: cursor.schema.items as Schema, type: `${cursor.type}[number]`, where: `the items of ${cursor.where}` };
      } else if (typeof step === 'string') {
        const props = cursor.schema.properties;
        if (!isSchemaObject(props) || !isSchemaObject(props[step])) fail(`${cursor.where} has no property ${step}`);
        const required = Array.isArray(cursor.schema.required) && cursor.schema.required.includes(step);
        const access = `${cursor.type}[${q(step)}]`;
        cursor = { schema: (props as Schema)[step] as Schema, type: required ? access : `NonNullable<${access}>`, where: `property ${step} of ${cursor.where}` };
      } else {
        const { property, value } = step.member;
        const members = ((cursor.schema.anyOf ?? cursor.schema.oneOf) as unknown[] | undefined) ?? [];
        const found = members
          .filter(isSchemaObject)
          .map((m) => deref({ schema: m, type: cursor.type, where: `a member of ${cursor.where}` }))
          .find((m) => isSchemaObject(m.schema.properties) && isSchemaObject(m.schema.properties[property]) && (m.schema.properties[property] as Schema).const === value);
        if (found === undefined) fail(`${cursor.where} has no union member whose ${property} is '${value}'`);
        if (found!.type === cursor.type) fail(`the member of ${cursor.where} whose ${property} is '${value}' is not a definition of its own`);
        cursor = found!;
      }
    }
    cursor = deref(cursor);
    resolved.set(entry.name, cursor);
    out.push({ name: entry.name, type: cursor.type, derivation });
  }
  return out;
}

/** The method-table types every revision's `methods.ts` exports under fixed names. */
const TABLE_TYPES = ['ProtocolTypes', 'ClientRequestMap', 'ServerRequestMap', 'InputRequestMap', 'ClientNotificationMap', 'ServerNotificationMap'] as const;

type StubGroup = { readonly iface: string; readonly factory: string; readonly doc: string; readonly methods: ReadonlyArray<readonly [string, string]> };

function stubGroups(table: RevisionTable): StubGroup[] {
  const sends = (side: 'client' | 'server', kind: 'request' | 'notification') =>
    table.methods
      .filter((s) => s.kind === kind && !s.embedded && (s.direction === 'both' || s.direction === (side === 'client' ? 'client-to-server' : 'server-to-client')))
      .map((s) => [s.stubName, s.method] as const);
  return [
    { iface: 'ClientStubs', factory: 'clientStubs', doc: 'a client', methods: sends('client', 'request') },
    { iface: 'ServerStubs', factory: 'serverStubs', doc: 'a server', methods: sends('server', 'request') },
    { iface: 'ClientNotifiers', factory: 'clientNotifiers', doc: 'a client', methods: sends('client', 'notification') },
    { iface: 'ServerNotifiers', factory: 'serverNotifiers', doc: 'a server', methods: sends('server', 'notification') },
  ];
}

/**
 * `protocol/<era>.ts`: the facts of the newest released revision of an era as type aliases
 * over its `types.ts`, its method maps, and (with `stubs`) the typed stub factories. It imports
 * the revision only for types, so loading it loads no validator.
 */
export function emitProtocolFile(model: RevisionModel, table: RevisionTable, facts: readonly ProtocolFact[], stubs: boolean): string {
  const rev = model.pin.revision;
  const era = model.pin.era;
  const resolved = resolveFacts(model, table, facts);
  const lines = [
    `import type * as M from '../${rev}/methods.js';`,
    `import type * as T from '../${rev}/types.js';`,
    '',
    `/** The revision these names resolve to: the newest released ${era} revision. */`,
    `export const revision = ${q(rev)};`,
    '',
  ];
  for (const name of TABLE_TYPES) lines.push(`/** \`${name}\` of ${rev}. */`, `export type ${name} = M.${name};`);
  lines.push('');
  for (const entry of resolved) lines.push(`/** ${entry.derivation.charAt(0).toUpperCase()}${entry.derivation.slice(1)}. */`, `export type ${entry.name} = ${entry.type};`);
  if (stubs) {
    lines.push(
      '',
      `/** Sends one message: what a Client or Server hands the stub factories. */`,
      `export type Sender<O> = (method: string, params: unknown, options?: O) => Promise<unknown>;`,
      '',
      `function bind<S>(send: Sender<never>, methods: Readonly<Record<string, string>>): S {`,
      `  return Object.fromEntries(Object.entries(methods).map(([name, method]) => [name, (params: unknown, options?: never) => send(method, params, options)])) as S;`,
      `}`,
    );
    for (const group of stubGroups(table)) {
      const rows = group.methods.map(([stub, method]) => `    ${stub}: ${q(method)},`);
      lines.push(
        '',
        `/** Typed senders of ${group.doc} (\`${group.iface}\` of ${rev}). */`,
        `export type ${group.iface}<O = unknown> = M.${group.iface}<O>;`,
        `/** Binds the ${group.iface} stubs to a generic sender. */`,
        `export function ${group.factory}<O>(send: Sender<O>): ${group.iface}<O> {`,
        `  return bind(send as Sender<never>, {${rows.length > 0 ? `\n${rows.join('\n')}\n  ` : ''}});`,
        `}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `protocol/error-codes.ts`: every error code of the pinned revisions by name, for code that
 * has no revision module at hand. A name must mean one code in every revision that has it.
 */
export function emitErrorCodesFile(tables: ReadonlyArray<readonly [string, RevisionTable]>): string {
  const codes = new Map<string, { code: number; revisions: string[] }>();
  for (const [rev, table] of tables) {
    for (const entry of table.errorCodes) {
      const known = codes.get(entry.name);
      if (known === undefined) codes.set(entry.name, { code: entry.code, revisions: [rev] });
      else if (known.code !== entry.code) throw new CodegenError(`revision ${rev}: error ${entry.name} is ${entry.code}, but ${known.revisions.join(', ')} say ${known.code}; one name must keep one code`);
      else known.revisions.push(rev);
    }
  }
  const rows = [...codes].sort(([, a], [, b]) => a.code - b.code).map(([name, { code, revisions }]) => `  /** In ${revisions.join(', ')}. */\n  ${name}: ${code},`);
  return [
    `/** Every pinned revision's error codes by name; a revision module's \`errorCodes\` lists those in force in it. */`,
    `export const ErrorCodes = {`,
    ...rows,
    `} as const;`,
    '',
    `/** The name of an error code of some pinned revision. */`,
    `export type ErrorCodeName = keyof typeof ErrorCodes;`,
    '',
  ].join('\n');
}
