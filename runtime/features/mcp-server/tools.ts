import type * as Stateful from '../../../generated/protocol/stateful.js';
import { messageOf, ProtocolError } from '../../core/errors.js';
import type { FromJsonSchema, InferSchemaInput, InferSchemaOutput } from '../../json-schema/infer.js';
import { describeSchemaIssues, type ParsingSchema, type RawShape, type SchemaInput } from '../../json-schema/schema-input.js';
import type { StandardJsonSchemaV1 } from '../../json-schema/standard-schema.js';
import type { JsonSchemaObject } from '../../json-schema/types.js';
import type { McpContext, SchemaCache } from './context.js';
import { EntryHandle, type RegisteredHandle, type Registry, type RegistryEntry } from './registry.js';
import type { McpSession } from './session.js';
import { InputRequiredSignal } from '../../era/input-broker.js';
import { Method } from '../../../generated/methods.js';

/** Tool names as the 2025-11-25 tools page asks: 1–128 ASCII letters, digits, `_`, `-` and `.`. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Where a tool's input schema says nothing, it takes no arguments (the tools page's recommendation). */
const NO_ARGUMENTS: JsonSchemaObject = { type: 'object', additionalProperties: false };

/** The arguments a tool handler receives for input schema `I`. */
export type ToolArgs<I> = I extends StandardJsonSchemaV1<unknown, infer Output>
  ? Output
  : I extends RawShape
    ? InferSchemaOutput<I>
  : I extends JsonSchemaObject
    ? FromJsonSchema<I> extends infer Args extends Record<string, unknown> ? Args : Record<string, unknown>
    : Record<string, never>;

/** A tool result as a handler returns it: `content` may be left out when `structuredContent` says it all. */
export type ToolResultBase = Omit<Stateful.CallToolResult, 'content' | 'structuredContent'> & { content?: Stateful.ContentBlock[] };

/** What a handler returns for output schema `O`: structured content of the schema's type, or an error result. */
export type ToolReturn<O> = O extends SchemaInput
  ? (ToolResultBase & { structuredContent: InferSchemaInput<O> }) | (ToolResultBase & { isError: true })
  : ToolResultBase & { structuredContent?: Record<string, unknown> };

/**
 * Runs a tool call. Throwing answers with an `isError` result carrying the message (a tool
 * execution error the model can react to); throw a ProtocolError to answer with a JSON-RPC
 * error instead.
 */
export type ToolHandler<I, O> = (args: ToolArgs<I>, context: McpContext) => ToolReturn<O> | Promise<ToolReturn<O>>;

/** How a tool is described to clients. */
export interface ToolConfig<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined> {
  readonly title?: string;
  readonly description?: string;
  /** Arguments: a JSON Schema (root `type: 'object'`) or a Standard Schema value; none means no arguments. */
  readonly inputSchema?: I;
  /** Structured results; every successful result must then carry matching `structuredContent`. */
  readonly outputSchema?: O;
  readonly annotations?: Stateful.ToolAnnotations;
  readonly icons?: Stateful.Icon[];
  readonly execution?: Stateful.ToolExecution;
  /**
   * With `execution.taskSupport` and the tasks extension: when the task starts. `'call'`
   * (default): the whole handler runs as the task. `'handler'`: the handler runs in the request
   * and starts the task itself with `TasksExtension.startTask`, so it can ask the user first.
   */
  readonly taskStart?: 'call' | 'handler';
  readonly _meta?: Record<string, unknown>;
  /** Shows the tool only to sessions for which this returns true (others neither list nor call it). */
  readonly available?: (session: McpSession) => boolean;
}

/** Changes to a registered tool; schema changes keep the handler's types, so re-register to change those. */
export interface ToolUpdate<I extends SchemaInput | undefined, O extends SchemaInput | undefined> extends Partial<ToolConfig<I, O>> {
  readonly name?: string;
  readonly handler?: ToolHandler<I, O>;
}

/**
 * The handle {@link McpServer.registerTool} returns.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * const tool = mcp.registerTool('search', { description: 'v1' }, () => ({ content: [] }));
 * tool.update({ description: 'v2' }); // one coalesced notifications/tools/list_changed
 * tool.disable();
 * ```
 */
export interface RegisteredTool<I extends SchemaInput | undefined = SchemaInput | undefined, O extends SchemaInput | undefined = SchemaInput | undefined> extends RegisteredHandle {
  /** The tool's current name. */
  readonly name: string;
  /** The tool as `tools/list` shows it. */
  readonly definition: Stateful.Tool;
  /** Changes any part of the tool; connected sessions are told the list changed. */
  update(changes: ToolUpdate<I, O>): void;
}

export interface ToolEntry extends RegistryEntry {
  name: string;
  config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined>;
  handler: (args: unknown, context: McpContext) => unknown;
  input: ParsingSchema | undefined;
  output: ParsingSchema | undefined;
  /** The `tools/list` entry, built once per change rather than per listing. */
  definition: Stateful.Tool;
}

/** Checks a tool name against the spec's naming guidance; throws RangeError when it falls outside. */
export function checkToolName(name: string): void {
  if (!TOOL_NAME.test(name)) {
    throw new RangeError(`Invalid tool name ${JSON.stringify(name)}: use 1–128 characters from A–Z, a–z, 0–9, '_', '-' and '.'`);
  }
}

/** Converts a tool's schemas and builds its listing entry. */
export function buildToolEntry(entry: Omit<ToolEntry, 'input' | 'output' | 'definition' | 'available'>, schemas: SchemaCache): ToolEntry {
  const { name, config } = entry;
  const input = config.inputSchema === undefined ? undefined : schemas.parsing(config.inputSchema, 'input', `tool ${name} inputSchema`);
  const output = config.outputSchema === undefined ? undefined : schemas.parsing(config.outputSchema, 'output', `tool ${name} outputSchema`);
  for (const [label, parsing] of [['inputSchema', input], ['outputSchema', output]] as const) {
    if (parsing !== undefined && parsing.jsonSchema.type !== 'object') throw new TypeError(`tool ${name}: ${label} must have type "object" at its root`);
  }
  const definition: Stateful.Tool = {
    name,
    ...(config.title !== undefined ? { title: config.title } : {}),
    ...(config.description !== undefined ? { description: config.description } : {}),
    inputSchema: (input?.jsonSchema ?? NO_ARGUMENTS) as Stateful.Tool['inputSchema'],
    ...(output !== undefined ? { outputSchema: output.jsonSchema as Stateful.Tool['outputSchema'] } : {}),
    ...(config.annotations !== undefined ? { annotations: config.annotations } : {}),
    ...(config.icons !== undefined ? { icons: config.icons } : {}),
    ...(config.execution !== undefined ? { execution: config.execution } : {}),
    ...(config._meta !== undefined ? { _meta: config._meta } : {}),
  };
  return { ...entry, available: config.available, input, output, definition };
}

/** The handle of a registered tool. */
export class ToolHandle<I extends SchemaInput | undefined, O extends SchemaInput | undefined> extends EntryHandle<ToolEntry> implements RegisteredTool<I, O> {
  constructor(
    registry: Registry<ToolEntry>,
    entry: ToolEntry,
    private readonly schemas: SchemaCache,
    private readonly strictNames: boolean,
  ) {
    super(registry, entry);
  }

  protected get key(): string {
    return this.entry.name;
  }

  get name(): string {
    return this.entry.name;
  }

  get definition(): Stateful.Tool {
    return this.entry.definition;
  }

  update(changes: ToolUpdate<I, O>): void {
    const { name = this.entry.name, handler, ...config } = changes;
    if (this.strictNames) checkToolName(name);
    // Rebuilding first means a schema that fails to convert leaves the tool as it was.
    const rebuilt = buildToolEntry({ ...this.entry, name, config: { ...this.entry.config, ...config } }, this.schemas);
    this.registry.rename(this.entry.name, name);
    Object.assign(this.entry, rebuilt, handler === undefined ? {} : { handler });
    this.registry.touch();
  }
}

/** A result that reports a failure to the model rather than to the protocol. */
export function toolError(text: string): Stateful.CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Runs `tools/call` for a visible tool: arguments are parsed against the input schema (a
 * mismatch is an `isError` result naming the fields, so that the model can retry), the
 * handler runs, and a successful result is checked against the output schema.
 */
export async function callTool(entry: ToolEntry, params: Stateful.CallToolRequestParams, context: McpContext): Promise<Stateful.CallToolResult> {
  let args: unknown = params.arguments ?? {};
  const input = entry.input ?? noArguments;
  const parsed = await input.parse(args);
  if (!parsed.ok) return toolError(`Invalid arguments for tool ${entry.name}: ${describeSchemaIssues(parsed.issues, 'arguments')}`);
  args = parsed.value;
  let returned: ToolResultBase & { structuredContent?: unknown };
  try {
    returned = (await entry.handler(args, context)) as typeof returned;
  } catch (error) {
    // A cancelled call gets no answer at all, and a ProtocolError is the handler's chosen reply.
    // So does a question for the client in the stateless era: the call ends with input_required.
    if (error instanceof ProtocolError || error instanceof InputRequiredSignal || context.signal.aborted) throw error;
    // The model learns of the failure from the result; the developer from onerror.
    context.session.server.protocol.reportHandlerFailure({ method: Method.ToolsCall, requestId: context.requestId, tool: entry.name, error });
    return toolError(messageOf(error));
  }
  return finishResult(entry, returned);
}

/** Parses the arguments of a tool without an input schema: only an empty object fits. */
const noArguments: ParsingSchema = {
  jsonSchema: NO_ARGUMENTS,
  parse: (value) => {
    const extra = typeof value === 'object' && value !== null ? Object.keys(value) : [];
    return extra.length === 0
      ? { ok: true, value }
      : { ok: false, issues: extra.map((key) => ({ path: '', message: `must NOT have additional property '${key}' (the tool takes no arguments)` })) };
  },
};

async function finishResult(entry: ToolEntry, returned: ToolResultBase & { structuredContent?: unknown }): Promise<Stateful.CallToolResult> {
  if (typeof returned !== 'object' || returned === null) {
    return toolError(`Tool ${entry.name} failed: its handler returned ${returned === undefined ? 'nothing' : typeof returned} instead of a result (a server bug)`);
  }
  let structured = returned.structuredContent;
  if (entry.output !== undefined && returned.isError !== true) {
    if (structured === undefined) {
      return toolError(`Tool ${entry.name} failed: it declares an outputSchema but returned no structuredContent (a server bug)`);
    }
    const parsed = await entry.output.parse(structured);
    if (!parsed.ok) {
      return toolError(`Tool ${entry.name} failed: its structuredContent does not match its outputSchema (a server bug): ${describeSchemaIssues(parsed.issues, 'structuredContent')}`);
    }
    structured = parsed.value;
  }
  // Clients that predate structured content read the text; the tools page asks for both.
  const content = returned.content ?? (structured === undefined ? [] : [{ type: 'text' as const, text: JSON.stringify(structured) }]);
  const { structuredContent: _returned, ...rest } = returned;
  const result: Stateful.CallToolResult = { ...rest, content };
  if (structured !== undefined) result.structuredContent = structured as Record<string, unknown>;
  return result;
}
