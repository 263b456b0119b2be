import type * as Stateful from '../../../generated/protocol/stateful.js';
import { asError } from '../../core/errors.js';
import type { Middleware } from '../../core/middleware.js';
import type { Transport } from '../../core/transport.js';
import { headerParameters, type HeaderParameter } from '../../era/mcp-headers.js';
import { RequestStateCodec } from '../../era/request-state.js';
import type { CacheHint } from '../../era/subscriptions.js';
import { InterpretingJsonSchemaValidator } from '../../json-schema/interpreter.js';
import type { SchemaInput } from '../../json-schema/schema-input.js';
import { Server } from '../../peers/server.js';
import { UriTemplate } from '../uri-template/uri-template.js';
import { deriveCapabilities } from './capabilities.js';
import { installHandlers, type ServerHost } from './handlers.js';
import { HookSet, type McpServerHooks } from './hooks.js';
import { ListChangedNotifier } from './list-changed.js';
import type { McpServerOptions } from './options.js';
import { buildPromptEntry, PromptHandle, type PromptCallback, type PromptConfig, type PromptEntry, type RegisteredPrompt } from './prompts.js';
import { Registry, type ListKind } from './registry.js';
import {
  ResourceHandle,
  DEFAULT_MAX_URI_LENGTH,
  resourceEntry,
  TemplateHandle,
  templateEntry,
  type ReadResourceCallback,
  type ReadTemplateCallback,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type ResourceConfig,
  type ResourceEntry,
  type ResourceTemplateConfig,
  type TemplateEntry,
} from './resources.js';
import { ParsingSchemaCache } from './schema-cache.js';
import { McpSession } from './session.js';
import { buildToolEntry, checkToolName, ToolHandle, type RegisteredTool, type ToolConfig, type ToolEntry, type ToolHandler } from './tools.js';

export type { McpServerOptions } from './options.js';

/** The cache hint of results whose kind has none configured: re-fetch, not shareable. */
const DEFAULT_CACHE_HINT: CacheHint = { ttlMs: 0, cacheScope: 'private' };

/**
 * A high-level MCP server: register tools, resources, resource templates and prompts, then
 * serve them to any number of connections. Each connection gets its own low-level
 * {@link Server} (`connect` for one transport, `createServer` as the factory of the HTTP
 * handler); registrations can change at any time, and every connected client is told with a
 * coalesced `list_changed` notification. Capabilities follow from what is registered.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { StdioServerTransport } from 'mcpgen/node';
 * import { z } from 'zod';
 *
 * const mcp = new McpServer({ name: 'weather', version: '1.0.0' });
 * mcp.registerTool(
 *   'forecast',
 *   { description: 'Forecast for a city', inputSchema: z.object({ city: z.string() }), outputSchema: z.object({ celsius: z.number() }) },
 *   async ({ city }) => ({ structuredContent: { celsius: city.length } }),
 * );
 * mcp.registerResourceTemplate('city', 'weather://{city}', {}, (uri, { city }) => ({ contents: [{ uri, text: `Weather in ${city}` }] }));
 * await mcp.connect(new StdioServerTransport());
 * // Over HTTP: createMcpHttpHandler({ server: () => mcp.createServer() })
 * ```
 */
export class McpServer {
  /** The name and version sent to clients. */
  readonly info: Stateful.Implementation;
  private readonly options: McpServerOptions;
  private readonly notifier: ListChangedNotifier;
  private readonly host: ServerHost;
  private readonly live = new Set<McpSession>();
  /**
   * The property under which a Server made here keeps its session. Not a WeakMap: an entry whose
   * value (the session) holds its key (the Server) survives every scavenge in V8, which would
   * keep each Server built per stateless request alive until a full collection.
   */
  private readonly sessionKey = Symbol('mcpgen.McpServer.session');
  private readonly requestState: RequestStateCodec;
  private readonly headerCache = new WeakMap<object, HeaderParameter[]>();
  private readonly hookSet = new HookSet();
  /** Middlewares every Server gets, those of the options first. */
  private readonly middlewares: Middleware[];

  constructor(info: Stateful.Implementation, options: McpServerOptions = {}) {
    const pageSize = options.pageSize ?? 1_000;
    if (!(pageSize >= 1)) throw new RangeError(`pageSize must be at least 1, not ${pageSize}`);
    this.info = info;
    this.options = options;
    this.notifier = new ListChangedNotifier(options.listChanged ?? 'coalesce', () => this.live, (error) => this.report(error));
    const changed = (kind: ListKind): void => this.notifier.changed(kind);
    const schemas = new ParsingSchemaCache(options.validator ?? new InterpretingJsonSchemaValidator(), options.toJsonSchema);
    this.host = {
      parsing: (schema, side, what) => schemas.parsing(schema, side, what),
      tools: new Registry<ToolEntry>('Tool', 'tools', changed),
      resources: new Registry<ResourceEntry>('Resource', 'resources', changed),
      templates: new Registry<TemplateEntry>('Resource template', 'resources', changed),
      prompts: new Registry<PromptEntry>('Prompt', 'prompts', changed),
      pageSize,
      maxUriLength: options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH,
      hooks: this.hookSet,
      cacheHint: (kind) => options.cache?.[kind] ?? DEFAULT_CACHE_HINT,
    };
    this.requestState = options.requestState instanceof RequestStateCodec ? options.requestState : new RequestStateCodec(options.requestState);
    this.middlewares = [...(options.middleware ?? [])];
    for (const hooks of options.hooks ?? []) this.hookSet.add(hooks);
  }

  /**
   * Adds hooks around tool calls, resource reads and prompt gets of every session, after those
   * already added (see {@link McpServerHooks}); returns the function that removes them.
   *
   * @example
   * ```ts
   * import { McpServer } from 'mcpgen';
   *
   * const mcp = new McpServer({ name: 'audited', version: '1.0.0' });
   * mcp.addHooks({
   *   afterToolCall({ name }, result) {
   *     console.log(`${name} answered${result.isError === true ? ' with an error' : ''}`);
   *   },
   * });
   * ```
   */
  addHooks(hooks: McpServerHooks): () => void {
    return this.hookSet.add(hooks);
  }

  /**
   * Adds a middleware to every session, connected or still to come, after those already added
   * (see {@link Middleware}); returns the function that removes it again.
   *
   * @example
   * ```ts
   * import { McpServer } from 'mcpgen';
   *
   * const mcp = new McpServer({ name: 'logged', version: '1.0.0' });
   * mcp.use({
   *   notification(call, next) {
   *     console.log(`notification ${call.method} from ${call.sessionId ?? 'stdio'}`);
   *     return next();
   *   },
   * });
   * ```
   */
  use(middleware: Middleware): () => void {
    this.middlewares.push(middleware);
    for (const session of this.live) session.server.use(middleware);
    return () => {
      const index = this.middlewares.lastIndexOf(middleware);
      if (index === -1) return;
      this.middlewares.splice(index, 1);
      for (const session of this.live) session.server.protocol.middleware.remove(middleware);
    };
  }

  /** Sessions whose Server was created and has not closed yet. */
  get sessions(): ReadonlySet<McpSession> {
    return this.live;
  }

  /** The session of a Server made by {@link createServer}. */
  sessionOf(server: Server): McpSession | undefined {
    return (server as unknown as Record<symbol, McpSession | undefined>)[this.sessionKey];
  }

  /**
   * Registers a tool. Its arguments are parsed with `inputSchema` before the handler runs (the
   * handler's argument type follows from the schema: a zod object's type, or a JSON Schema
   * literal's), and with `outputSchema` every successful result must carry matching
   * `structuredContent`. Throws RangeError for a name outside the spec's guidance, Error for a
   * name already taken, TypeError for a schema that cannot be used.
   *
   * @example
   * ```ts
   * import { McpServer } from 'mcpgen';
   *
   * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
   * const add = mcp.registerTool('add', {
   *   inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
   * }, ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
   * add.disable(); // clients are told the tool list changed
   * ```
   */
  registerTool<const I extends SchemaInput | undefined = undefined, const O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolHandler<I, O>,
  ): RegisteredTool<I, O> {
    if (this.options.strictToolNames !== false) checkToolName(name);
    else if (name === '') throw new RangeError('A tool name must not be empty');
    const entry = buildToolEntry(
      { name, config: config as ToolConfig<SchemaInput | undefined, SchemaInput | undefined>, handler: handler as ToolEntry['handler'], enabled: true },
      this.host,
    );
    this.host.tools.add(name, entry);
    return new ToolHandle<I, O>(this.host.tools, entry, this.host, this.options.strictToolNames !== false);
  }

  /**
   * Registers a resource with a fixed URI, read by `read`.
   *
   * @example
   * ```ts
   * import { McpServer } from 'mcpgen';
   *
   * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
   * const readme = mcp.registerResource('readme', 'file:///README.md', { mimeType: 'text/markdown' }, (uri) => ({
   *   contents: [{ uri, mimeType: 'text/markdown', text: '# Hello' }],
   * }));
   * await readme.notifyUpdated(); // subscribed clients get notifications/resources/updated
   * ```
   */
  registerResource(name: string, uri: string, config: ResourceConfig, read: ReadResourceCallback): RegisteredResource {
    if (uri === '') throw new TypeError('A resource URI must not be empty');
    if (UriTemplate.isTemplate(uri)) throw new TypeError(`${uri} is a URI template; register it with registerResourceTemplate`);
    const entry = resourceEntry(uri, name, config, read);
    this.host.resources.add(uri, entry);
    return new ResourceHandle(this.host.resources, entry, (target) => this.notifyResourceUpdated(target));
  }

  /**
   * Registers an RFC 6570 resource template. A URI matching it is read by `read` with the
   * variables taken from the URI (typed from the template text); `list` enumerates concrete
   * resources for `resources/list`, and `complete` completes variables.
   *
   * @example
   * ```ts
   * import { McpServer } from 'mcpgen';
   *
   * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
   * mcp.registerResourceTemplate('user', 'users://{id}/profile{?fields}', {
   *   complete: { id: (value) => ['alice', 'bob'].filter((id) => id.startsWith(value)) },
   * }, (uri, { id, fields }) => ({ contents: [{ uri, text: `${id}: ${fields ?? 'all'}` }] }));
   * ```
   */
  registerResourceTemplate<const T extends string>(name: string, uriTemplate: T, config: ResourceTemplateConfig<T>, read: ReadTemplateCallback<T>): RegisteredResourceTemplate<T> {
    const template = new UriTemplate<string>(uriTemplate);
    const entry = templateEntry(template, name, config as ResourceTemplateConfig<string>, read as unknown as ReadTemplateCallback<string>);
    this.host.templates.add(uriTemplate, entry);
    return new TemplateHandle<T>(this.host.templates, entry);
  }

  /**
   * Registers a prompt. With `argsSchema`, its arguments are listed from the schema, checked
   * on `prompts/get` (-32602 naming the field when they do not fit) and typed in the callback.
   *
   * @example
   * ```ts
   * import { McpServer } from 'mcpgen';
   * import { z } from 'zod';
   *
   * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
   * mcp.registerPrompt('review', {
   *   argsSchema: z.object({ language: z.string().describe('Programming language') }),
   *   complete: { language: (value) => ['go', 'rust', 'typescript'].filter((l) => l.startsWith(value)) },
   * }, ({ language }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Review my ${language}` } }] }));
   * ```
   */
  registerPrompt<const A extends SchemaInput | undefined = undefined>(name: string, config: PromptConfig<A>, callback: PromptCallback<A>): RegisteredPrompt<A> {
    if (name === '') throw new RangeError('A prompt name must not be empty');
    const entry = buildPromptEntry(
      { name, config: config as PromptConfig<SchemaInput | undefined>, callback: callback as PromptEntry['callback'], enabled: true },
      this.host,
    );
    this.host.prompts.add(name, entry);
    return new PromptHandle<A>(this.host.prompts, entry, this.host);
  }

  /**
   * A new low-level Server serving everything registered here, for one connection. Its
   * capabilities are fixed now, from what is registered (plus `options.capabilities`).
   */
  createServer(): Server {
    const capabilities = deriveCapabilities(this.host, this.options);
    // Everything that is not McpServer's own option configures the Server as is.
    const { instructions, capabilities: _declared, pageSize: _pageSize, maxUriLength: _maxUriLength, validator: _validator, toJsonSchema: _toJsonSchema, listChanged: _listChanged, logging: _logging, strictToolNames: _strict, setupServer: _setup, onerror: _onerror, cache: _cache, requestState: _state, hooks: _hooks, middleware: _middleware, ...endpoint } =
      this.options;
    const server = new Server(this.info, {
      ...endpoint,
      capabilities,
      ...(instructions !== undefined ? { instructions } : {}),
      requestState: this.requestState,
      onerror: (error) => this.report(error),
      middleware: this.middlewares,
    });
    const session = new McpSession(server, capabilities, this.notifier.nextEpoch());
    installHandlers(server, session, this.host);
    const toolHeaderParameters: Server['toolHeaderParameters'] = (name) => {
      const entry = this.host.tools.find(name, session);
      if (entry === undefined) return undefined;
      let parameters = this.headerCache.get(entry.definition);
      if (parameters === undefined) {
        const read = headerParameters(entry.definition.inputSchema);
        // A tool with invalid annotations is one clients drop; its calls are checked for none.
        parameters = read.ok ? [...read.parameters] : [];
        this.headerCache.set(entry.definition, parameters);
      }
      return parameters;
    };
    server.toolHeaderParameters = toolHeaderParameters;
    this.options.setupServer?.(server, session);
    this.live.add(session);
    (server as unknown as Record<symbol, McpSession>)[this.sessionKey] = session;
    // The engine's close hook, not the Server's public `onclose`, so the application keeps that one.
    const closed = server.protocol.onclose;
    const onclose = (): void => {
      this.live.delete(session);
      closed?.();
    };
    server.protocol.onclose = onclose;
    return server;
  }

  /** Serves one connection; resolves with its session once the transport started. */
  async connect(transport: Transport): Promise<McpSession> {
    const server = this.createServer();
    try {
      await server.connect(transport);
    } catch (error) {
      this.live.delete(this.sessionOf(server)!);
      throw error;
    }
    return this.sessionOf(server)!;
  }

  /**
   * Tells connected clients that a list changed when nothing registered here did: an
   * `available` filter that reads outside state, say. Registering, updating, enabling and
   * removing items announce themselves. Follows the `listChanged` option (coalesced into one
   * notification per list and session by default; nothing when `'off'`).
   *
   * @example
   * ```ts
   * import { McpServer } from 'mcpgen';
   *
   * let betaOn = false;
   * const mcp = new McpServer({ name: 'flags', version: '1.0.0' });
   * mcp.registerTool('beta-search', { available: () => betaOn }, () => ({ content: [{ type: 'text', text: 'found' }] }));
   * betaOn = true;
   * mcp.notifyListChanged('tools'); // clients list the tools again and see beta-search
   * ```
   */
  notifyListChanged(kind: ListKind): void {
    this.notifier.changed(kind);
  }

  /** Sends `notifications/resources/updated` for `uri` to every session subscribed to it. */
  async notifyResourceUpdated(uri: string): Promise<void> {
    const sends = [...this.live]
      // Stateless-era sessions filter by their subscriptions/listen streams themselves.
      .filter((session) => session.isInitialized && (session.subscriptions.has(uri) || session.server.era === 'stateless'))
      .map((session) => session.server.notifyResourceUpdated({ uri }).catch((error: unknown) => this.report(asError(error))));
    await Promise.all(sends);
  }

  /** Sends a log message to every session (each drops it if below the level its client set). */
  async sendLoggingMessage(params: Stateful.LoggingMessageNotificationParams): Promise<void> {
    const sends = [...this.live]
      .filter((session) => session.isInitialized && session.capabilities.logging !== undefined)
      .map((session) => session.server.notifyLoggingMessage(params).catch((error: unknown) => this.report(asError(error))));
    await Promise.all(sends);
  }

  /** Sends pending list_changed notifications, then closes every session. */
  async close(): Promise<void> {
    this.notifier.flush();
    await Promise.all([...this.live].map((session) => session.close()));
  }

  private report(error: Error): void {
    try {
      this.options.onerror?.(error);
    } catch {
      // A failing error hook must not break notification delivery.
    }
  }
}

