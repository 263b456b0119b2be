import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { ProtocolError } from '../../core/errors.js';
import type { FromJsonSchema, InferSchemaOutput } from '../../json-schema/infer.js';
import { isPlainObject } from '../../json-schema/json-values.js';
import { describeSchemaIssues, type ParsingSchema, type RawShape, type SchemaInput } from '../../json-schema/schema-input.js';
import type { StandardJsonSchemaV1 } from '../../json-schema/standard-schema.js';
import type { JsonSchemaObject } from '../../json-schema/types.js';
import type { Completer } from './completion.js';
import type { McpContext, SchemaCache } from './context.js';
import { EntryHandle, type RegisteredHandle, type Registry, type RegistryEntry } from './registry.js';
import type { McpSession } from './session.js';

/** The arguments a prompt callback receives for arguments schema `A` (prompt arguments arrive as strings). */
export type PromptArgs<A> = A extends StandardJsonSchemaV1<unknown, infer Output>
  ? Output
  : A extends RawShape
    ? InferSchemaOutput<A>
  : A extends JsonSchemaObject
    ? FromJsonSchema<A> extends infer Args extends Record<string, unknown> ? Args : Record<string, string | undefined>
    : Record<string, string | undefined>;

/** Builds the prompt's messages. Throw a ProtocolError for a JSON-RPC error of your choice. */
export type PromptCallback<A> = (args: PromptArgs<A>, context: McpContext) => Stateful.GetPromptResult | Promise<Stateful.GetPromptResult>;

/** How a prompt is described, validated and completed. */
export interface PromptConfig<A extends SchemaInput | undefined = undefined> {
  readonly title?: string;
  readonly description?: string;
  readonly icons?: Stateful.Icon[];
  readonly _meta?: Record<string, unknown>;
  /**
   * The arguments as an object schema of string properties (JSON Schema or a Standard Schema
   * value): listed as the prompt's `arguments`, checked on `prompts/get`, and typing the callback.
   */
  readonly argsSchema?: A;
  /** The arguments as plain descriptions, for prompts without a schema; required ones are checked. */
  readonly arguments?: Stateful.PromptArgument[];
  /** Completes argument values in `completion/complete`. */
  readonly complete?: { readonly [K in keyof PromptArgs<A> & string]?: Completer };
  /** Shows the prompt only to sessions for which this returns true. */
  readonly available?: (session: McpSession) => boolean;
}

/**
 * The handle {@link McpServer.registerPrompt} returns.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * const prompt = mcp.registerPrompt('summarize', {}, () => ({ messages: [] }));
 * prompt.update({ title: 'Summarize' });
 * ```
 */
export interface RegisteredPrompt<A extends SchemaInput | undefined = SchemaInput | undefined> extends RegisteredHandle {
  readonly name: string;
  /** The prompt as `prompts/list` shows it. */
  readonly definition: Stateful.Prompt;
  /** Changes any part of the prompt; connected sessions are told the list changed. */
  update(changes: Partial<PromptConfig<A>> & { readonly name?: string; readonly callback?: PromptCallback<A> }): void;
}

export interface PromptEntry extends RegistryEntry {
  name: string;
  config: PromptConfig<SchemaInput | undefined>;
  callback: (args: unknown, context: McpContext) => Stateful.GetPromptResult | Promise<Stateful.GetPromptResult>;
  args: ParsingSchema | undefined;
  complete: Readonly<Record<string, Completer | undefined>> | undefined;
  definition: Stateful.Prompt;
}

/** Converts the prompt's schema and builds its listing entry. */
export function buildPromptEntry(entry: Pick<PromptEntry, 'name' | 'config' | 'callback' | 'enabled'>, schemas: SchemaCache): PromptEntry {
  const { name, config } = entry;
  const args = config.argsSchema === undefined ? undefined : schemas.parsing(config.argsSchema, 'input', `prompt ${name} argsSchema`);
  const described = args === undefined ? config.arguments : argumentsOf(args.jsonSchema);
  const definition: Stateful.Prompt = {
    name,
    ...(config.title !== undefined ? { title: config.title } : {}),
    ...(config.description !== undefined ? { description: config.description } : {}),
    ...(described !== undefined ? { arguments: described } : {}),
    ...(config.icons !== undefined ? { icons: config.icons } : {}),
    ...(config._meta !== undefined ? { _meta: config._meta } : {}),
  };
  return { ...entry, available: config.available, args, complete: config.complete as PromptEntry['complete'], definition };
}

/** The prompt arguments an object schema describes: one per property, in order. */
function argumentsOf(schema: JsonSchemaObject): Stateful.PromptArgument[] {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.entries(properties).map(([name, property]) => {
    const details = isPlainObject(property) ? property : {};
    return {
      name,
      ...(typeof details.title === 'string' ? { title: details.title } : {}),
      ...(typeof details.description === 'string' ? { description: details.description } : {}),
      required: required.includes(name),
    };
  });
}

export class PromptHandle<A extends SchemaInput | undefined> extends EntryHandle<PromptEntry> implements RegisteredPrompt<A> {
  constructor(
    registry: Registry<PromptEntry>,
    entry: PromptEntry,
    private readonly schemas: SchemaCache,
  ) {
    super(registry, entry);
  }

  protected get key(): string {
    return this.entry.name;
  }

  get name(): string {
    return this.entry.name;
  }

  get definition(): Stateful.Prompt {
    return this.entry.definition;
  }

  update(changes: Partial<PromptConfig<A>> & { readonly name?: string; readonly callback?: PromptCallback<A> }): void {
    const { name = this.entry.name, callback = this.entry.callback, ...config } = changes;
    const merged = { ...this.entry.config, ...config } as PromptConfig<SchemaInput | undefined>;
    const rebuilt = buildPromptEntry({ name, config: merged, callback: callback as PromptEntry['callback'], enabled: this.entry.enabled }, this.schemas);
    this.registry.rename(this.entry.name, name);
    Object.assign(this.entry, rebuilt);
    this.registry.touch();
  }
}

/**
 * Runs `prompts/get`: arguments are checked (INVALID_PARAMS naming the field when they do not
 * fit, as the prompts page asks), then the callback builds the messages.
 */
export async function getPrompt(entry: PromptEntry, params: Stateful.GetPromptRequestParams, context: McpContext): Promise<Stateful.GetPromptResult> {
  const given: Record<string, string> = params.arguments ?? {};
  let args: unknown = given;
  if (entry.args !== undefined) {
    const parsed = await entry.args.parse(given);
    if (!parsed.ok) throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `Invalid arguments for prompt ${entry.name}: ${describeSchemaIssues(parsed.issues, 'arguments')}`);
    args = parsed.value;
  } else {
    const missing = (entry.config.arguments ?? []).filter((argument) => argument.required === true && given[argument.name] === undefined);
    if (missing.length > 0) {
      throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `Prompt ${entry.name} needs the argument${missing.length > 1 ? 's' : ''} ${missing.map((argument) => argument.name).join(', ')}`);
    }
  }
  return entry.callback(args, context);
}
