import type * as Stateful from '../../../generated/protocol/stateful.js';
import { SdkError } from '../../core/errors.js';
import type { RequestId } from '../../core/jsonrpc.js';
import type { InferSchemaOutput } from '../../json-schema/infer.js';
import { isPlainObject } from '../../json-schema/json-values.js';
import { describeSchemaIssues, type ParsingSchema, type SchemaInput, type SchemaSide } from '../../json-schema/schema-input.js';
import type { Meta, Params, RequestContext, RequestOptions } from '../../core/request-context.js';
import { StatelessContext } from '../../era/stateless-request.js';
import type { MessageExtra } from '../../core/transport.js';
import type { McpSession } from './session.js';
import { Method } from '../../../generated/methods.js';

/** Converts schema arguments once and remembers the result (see McpServer). */
export interface SchemaCache {
  parsing<T>(schema: SchemaInput, side: SchemaSide, what: string): ParsingSchema<T>;
}

/** Options of the requests a handler sends to the client; they are cancelled with the handler's request. */
export type ContextRequestOptions = Pick<RequestOptions, 'signal' | 'timeout' | 'onprogress' | 'resetTimeoutOnProgress' | 'maxTotalTimeout' | 'inputKey'>;

/** How a form elicitation ended: accepted with parsed content, or declined / cancelled. */
export type FormElicitationOutcome<T> =
  | { readonly action: 'accept'; readonly content: T }
  | { readonly action: 'decline' | 'cancel' };

/** How a URL elicitation ended, with the id to match a later completion against. */
export interface UrlElicitationOutcome {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly elicitationId: string;
}

/** Parameters of {@link McpContext.elicitUrl}. */
export interface UrlElicitationParams {
  readonly message: string;
  readonly url: string;
  /** Defaults to a random UUID. */
  readonly elicitationId?: string;
}

/**
 * What every McpServer handler receives besides its arguments: the session, the request's
 * cancellation signal and metadata, and helpers for talking back to the client in the scope of
 * this request (log, progress, sampling, elicitation, roots). Requests it sends are tied to the
 * handler's request, so they are cancelled when it is, and routed with it over HTTP.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { z } from 'zod';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * mcp.registerTool('book', { inputSchema: z.object({ city: z.string() }) }, async ({ city }, context) => {
 *   await context.log('info', `booking in ${city}`);
 *   const answer = await context.elicitForm('Which date?', z.object({ date: z.string() }));
 *   if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'Booking cancelled' }] };
 *   return { content: [{ type: 'text', text: `Booked ${city} on ${answer.content.date}` }] };
 * });
 * ```
 */
export class McpContext {
  /** The connection this request arrived on. */
  readonly session: McpSession;
  /** The low-level request context. */
  readonly request: RequestContext;
  private readonly schemas: SchemaCache;

  constructor(session: McpSession, request: RequestContext, schemas: SchemaCache) {
    this.session = session;
    this.request = request;
    this.schemas = schemas;
  }

  /**
   * The same helpers bound to another low-level request context: how an extension hands the
   * rest of a handler a context of its own (a task's, whose questions become input requests).
   *
   * @example
   * ```ts
   * import { McpServer } from 'mcpgen';
   *
   * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
   * mcp.registerTool('echo', {}, (_args, context) => {
   *   const same = context.withRequest(context.request);
   *   return { content: [{ type: 'text', text: String(same.requestId) }] };
   * });
   * ```
   */
  withRequest(request: RequestContext): McpContext {
    return new McpContext(this.session, request, this.schemas);
  }

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.request.signal;
  }

  get requestId(): RequestId {
    return this.request.requestId;
  }

  /** The request's `params._meta`, if any. */
  get _meta(): Meta | undefined {
    return this.request._meta;
  }

  /** What the transport knew about the message (HTTP headers, auth). */
  get extra(): MessageExtra | undefined {
    return this.request.extra;
  }

  /**
   * The client's capabilities for this request: declared on the request itself in the
   * stateless era, in `initialize` otherwise.
   */
  get clientCapabilities(): Stateful.ClientCapabilities | undefined {
    return this.request instanceof StatelessContext
      ? this.request.clientCapabilities as Stateful.ClientCapabilities | undefined
      : this.session.clientCapabilities;
  }

  /**
   * Stateless era: data the handler wants back when the client retries a multi round-trip
   * request (it travels, integrity-protected, in `requestState`). Undefined on the first round
   * and in the stateful era, where a handler simply keeps its variables.
   */
  get requestState(): unknown {
    return this.request instanceof StatelessContext ? this.request.requestState : undefined;
  }

  set requestState(value: unknown) {
    if (this.request instanceof StatelessContext) this.request.requestState = value;
  }

  /**
   * Sends `notifications/message` tied to this request. Messages below the level the client
   * set with `logging/setLevel` are dropped by the server, and so is everything when the server
   * was told not to declare `logging` (`McpServerOptions.logging: false`), so that handlers can
   * log unconditionally.
   */
  async log(level: Stateful.LoggingLevel, data: unknown, logger?: string): Promise<void> {
    if (this.session.capabilities.logging === undefined) return;
    await this.request.log(level, data, logger);
  }

  /** Reports progress; does nothing when the client asked for none (no progress token). */
  reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    return this.request.reportProgress(progress, total, message);
  }

  /**
   * Asks the client to sample its model (`sampling/createMessage`). `tools`/`toolChoice` need
   * the client's `sampling.tools` capability (2025-11-25); without it this fails with
   * SdkError('CAPABILITY_MISSING') before anything is sent.
   */
  sample(params: Stateful.CreateMessageRequestParams, options: ContextRequestOptions = {}): Promise<Stateful.CreateMessageResult> {
    if ((params.tools !== undefined || params.toolChoice !== undefined) && this.clientCapabilities?.sampling?.tools === undefined) {
      return Promise.reject(new SdkError('CAPABILITY_MISSING', 'Cannot sample with tools: the client did not declare capability sampling.tools'));
    }
    return this.ask(Method.SamplingCreateMessage, params, options, () => this.session.server.createMessage(params, this.tied(options)));
  }

  /**
   * Asks the user for structured input through the client (`elicitation/create`, form mode).
   * `schema` is a flat object schema of primitives (JSON Schema or a Standard Schema value);
   * accepted content gets the schema's defaults for fields the client left out, is checked
   * against the schema, and comes back typed. Fails with SdkError('UNKNOWN_METHOD') on
   * revisions without elicitation, ('CAPABILITY_MISSING') when the client cannot show forms,
   * and ('INVALID_RESULT') when accepted content does not match the schema.
   */
  async elicitForm<S extends SchemaInput>(message: string, schema: S, options: ContextRequestOptions = {}): Promise<FormElicitationOutcome<InferSchemaOutput<S>>> {
    const declared = this.clientCapabilities?.elicitation;
    if (declared !== undefined && declared.form === undefined && declared.url !== undefined) {
      throw new SdkError('CAPABILITY_MISSING', 'Cannot elicit a form: the client declared URL-mode elicitation only');
    }
    const parsing = this.schemas.parsing<InferSchemaOutput<S>>(schema, 'input', 'elicitation schema');
    const { $schema: _dialect, ...requestedSchema } = parsing.jsonSchema;
    // `mode` exists from the revision that added URL mode; earlier ones know form mode only.
    const params = {
      ...(this.urlModeKnown() ? { mode: 'form' } : {}),
      message,
      requestedSchema,
    } as Stateful.ElicitRequestFormParams;
    const result = await this.ask(Method.ElicitationCreate, params, options, () => this.session.server.elicit(params, this.tied(options)));
    if (result.action !== 'accept') return { action: result.action };
    const content = withDefaults(requestedSchema, result.content ?? {});
    const parsed = await parsing.parse(content);
    if (!parsed.ok) {
      throw new SdkError('INVALID_RESULT', `Elicitation content does not match the requested schema: ${describeSchemaIssues(parsed.issues, 'content')}`, { data: { issues: parsed.issues } });
    }
    return { action: 'accept', content: parsed.value };
  }

  /**
   * Sends the user to a URL for an interaction the client must not see (`elicitation/create`,
   * URL mode, 2025-11-25 on). Needs the client's `elicitation.url` capability. Announce the end
   * of the interaction later with `session.notifyElicitationComplete(elicitationId)`.
   */
  async elicitUrl(params: UrlElicitationParams, options: ContextRequestOptions = {}): Promise<UrlElicitationOutcome> {
    if (!this.urlModeKnown()) {
      throw new SdkError('UNKNOWN_METHOD', `URL-mode elicitation does not exist in protocol ${this.session.protocolVersion ?? '(not negotiated)'}`);
    }
    if (this.clientCapabilities?.elicitation?.url === undefined) {
      throw new SdkError('CAPABILITY_MISSING', 'Cannot elicit a URL: the client did not declare capability elicitation.url');
    }
    const elicitationId = params.elicitationId ?? crypto.randomUUID();
    if (this.request instanceof StatelessContext) {
      // The stateless era has no completion notification, hence no elicitation id on the wire.
      const result = await this.request.sendRequest<Stateful.ElicitResult>(Method.ElicitationCreate, { mode: 'url', message: params.message, url: params.url }, options);
      return { action: result.action, elicitationId };
    }
    const result = await this.session.server.elicit({ mode: 'url', message: params.message, url: params.url, elicitationId }, this.tied(options));
    return { action: result.action, elicitationId };
  }

  /** Asks the client for its roots (`roots/list`). */
  async listRoots(options: ContextRequestOptions = {}): Promise<Stateful.Root[]> {
    return (await this.ask(Method.RootsList, {}, options, () => this.session.server.listRoots(undefined, this.tied(options)))).roots;
  }

  /**
   * Sends a question to the client: a request of its own in the stateful era, an input request
   * of a multi round-trip request in the stateless one (see StatelessContext).
   */
  private ask<R>(method: string, params: object, options: ContextRequestOptions, stateful: () => Promise<R>): Promise<R> {
    if (this.request instanceof StatelessContext) return this.request.sendRequest<R>(method, params as Params, options);
    return stateful();
  }

  /** Whether the negotiated revision has URL-mode elicitation (and with it the `mode` field). */
  private urlModeKnown(): boolean {
    return this.session.server.protocol.revision?.definitions.ElicitRequestURLParams !== undefined;
  }

  private tied(options: ContextRequestOptions): RequestOptions {
    const signal = options.signal === undefined ? this.signal : AbortSignal.any([this.signal, options.signal]);
    return { ...options, signal, relatedRequestId: this.requestId };
  }
}

/** `content` with every property the schema has a default for and the client left out filled in. */
export function withDefaults(schema: Record<string, unknown>, content: Record<string, unknown>): Record<string, unknown> {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const filled: Record<string, unknown> = { ...content };
  for (const [name, property] of Object.entries(properties)) {
    if (!Object.hasOwn(filled, name) && isPlainObject(property) && property.default !== undefined) filled[name] = property.default;
  }
  return filled;
}
