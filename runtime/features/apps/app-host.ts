/**
 * The host side of an app connection: a JSON-RPC server on the postMessage channel to one View.
 * It answers `ui/initialize` with the host's context, pushes tool input and results, and relays
 * the View's `tools/call` and `resources/read` to the MCP server through the host's Client,
 * for tools whose visibility includes `app`. Every inbound message is checked with the
 * generated validators of the extension and its core revision; a bad one is answered with a
 * JSON-RPC error (-32700, -32600, -32601, -32602 naming the field) and never throws here.
 */
import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import {
  coreRevision,
  extensionModule,
  protocolVersion as latestAppsVersion,
  type McpUiHostCapabilities,
  type McpUiHostContext,
  type McpUiInitializeRequest,
  type McpUiInitializeResult,
  type McpUiMessageRequest,
  type McpUiResourceTeardownResult,
  type McpUiSizeChangedNotification,
  type McpUiUpdateModelContextRequest,
  type McpUiDisplayMode,
  type McpUiSandboxResourceReadyNotification,
} from '../../../generated/extensions/apps/index.js';
import { coreRevisionModule } from '../../../generated/extensions/apps/core.js';
import { Method } from '../../../generated/methods.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { ProtocolError, SdkError } from '../../core/errors.js';
import { Protocol } from '../../core/protocol.js';
import type { Params } from '../../core/request-context.js';
import type { Transport } from '../../core/transport.js';
import type { Client } from '../../peers/client.js';
import { registerExtensionModule } from '../../peers/extension.js';
import { appCallable, type ToolWithMeta } from './visibility.js';

type InitializeParams = NonNullable<McpUiInitializeRequest['params']>;
/** What a sandbox proxy is sent to load: the View's HTML, its CSP, permissions and sandbox tokens. */
export type SandboxResource = McpUiSandboxResourceReadyNotification['params'];

/**
 * The host context as a host gives it: the schema's `McpUiHostContext`, with `toolInfo.tool` a
 * tool as `tools/list` returned it (of either era).
 */
export type AppHostContext = Omit<McpUiHostContext, 'toolInfo'> & {
  readonly toolInfo?: { readonly id?: string | number; readonly tool: ToolWithMeta };
};

/** How many notifications wait for the View's `ui/notifications/initialized`; more are refused. */
export const MAX_QUEUED_NOTIFICATIONS = 64;

/** What the host decides about requests only it can answer; a missing one is not offered. */
export interface AppHostHandlers {
  /** `ui/open-link`: open `url` (in a new tab, after asking the user, …); throw to refuse. */
  readonly openLink?: (url: string) => void | Promise<void>;
  /** `ui/message`: add the View's message to the conversation. */
  readonly message?: (params: NonNullable<McpUiMessageRequest['params']>) => void | Promise<void>;
  /** `ui/update-model-context`: the View's latest context for the model. */
  readonly updateModelContext?: (params: NonNullable<McpUiUpdateModelContextRequest['params']>) => void | Promise<void>;
  /** `ui/request-display-mode`: returns the mode actually set (default: the current one). */
  readonly requestDisplayMode?: (mode: McpUiDisplayMode) => McpUiDisplayMode | Promise<McpUiDisplayMode>;
  /** `ui/notifications/size-changed`: resize the frame. */
  readonly sizeChanged?: (size: NonNullable<McpUiSizeChangedNotification['params']>) => void;
  /** `ui/notifications/request-teardown`: the View asks to be closed. */
  readonly teardownRequested?: () => void;
}

/** Options of an {@link AppHost}. */
export interface AppHostOptions extends AppHostHandlers {
  /** The host's connection to the MCP server that serves the app. */
  readonly client: Client;
  /** The host, as `hostInfo` of the `ui/initialize` result. */
  readonly hostInfo: Stateful.Implementation;
  /** The context the View starts with (theme, display mode, the tool call it renders, …). */
  readonly hostContext?: AppHostContext;
  /** Capabilities declared beyond those the handlers imply (sandbox grants, say). */
  readonly hostCapabilities?: McpUiHostCapabilities;
  /**
   * The server's tools, to check visibility; default `client.listAll('tools/list')`. The list is
   * fetched at the View's first tool call and again when the View names a tool it lacks, at most
   * once per `toolListTtlMs`, so a View cannot make the host flood the server with listings.
   */
  readonly listTools?: () => Promise<readonly Stateful.Tool[]>;
  /** Least time between two fetches of the tool list; default 1 s. */
  readonly toolListTtlMs?: number;
  /** Timeout of the host's own requests to the View (`ui/resource-teardown`); default 5 s. */
  readonly requestTimeoutMs?: number;
  /** Problems with no request to answer (a bad notification from the View, a failed send). */
  readonly onerror?: (error: Error) => void;
}

/**
 * The host side of one View's connection. Connect it to the View's transport (a
 * {@link PostMessageTransport}, usually through {@link renderApp}) before the View loads.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { AppHost, PostMessageTransport } from 'mcpgen/apps';
 *
 * declare const client: Client;
 * declare const port: MessagePort;
 * const host = new AppHost({ client, hostInfo: { name: 'my-host', version: '1.0.0' }, hostContext: { theme: 'dark' }, openLink: (url) => void window.open(url) });
 * await host.connect(new PostMessageTransport(port));
 * await host.initialized;
 * await host.sendToolInput({ city: 'Lisbon' });
 * ```
 */
export class AppHost {
  /**
   * Resolves with the View's `ui/initialize` params once it sent `ui/notifications/initialized`;
   * rejects with SdkError('CONNECTION_CLOSED') when the connection ends before that.
   */
  readonly initialized: Promise<InitializeParams>;
  private readonly options: AppHostOptions;
  private protocol: Protocol | undefined;
  private context: McpUiHostContext;
  private appParams: InitializeParams | undefined;
  private ready = false;
  private readonly queue: { method: string; params: Params | undefined; settle: (error?: unknown) => void }[] = [];
  private tools: Map<string, Stateful.Tool> | undefined;
  private toolsFetchedAt = Number.NEGATIVE_INFINITY;
  private sandboxResource: SandboxResource | undefined;
  private resolveInitialized!: (params: InitializeParams) => void;
  private rejectInitialized!: (error: Error) => void;

  constructor(options: AppHostOptions) {
    this.options = options;
    this.context = { ...options.hostContext } as McpUiHostContext;
    this.initialized = new Promise((resolve, reject) => {
      this.resolveInitialized = resolve;
      this.rejectInitialized = reject;
    });
    // Nobody need wait for it: a View closed before it initialized is no unhandled rejection.
    this.initialized.catch(() => {});
  }

  /** The View's `appInfo` and `appCapabilities`, once it sent `ui/initialize`. */
  get app(): InitializeParams | undefined {
    return this.appParams;
  }

  /** The context as the View knows it. */
  get hostContext(): McpUiHostContext {
    return this.context;
  }

  /** Starts serving the View on `transport`. */
  async connect(transport: Transport): Promise<void> {
    if (this.protocol !== undefined) throw new SdkError('ALREADY_CONNECTED', 'AppHost is already connected');
    const protocol = new Protocol({ side: 'server', revision: coreRevisionModule, onerror: this.options.onerror, defaultTimeoutMs: this.options.requestTimeoutMs ?? 5_000 });
    registerExtensionModule({ protocol, extensions: [], protocolVersion: coreRevision }, extensionModule);
    this.protocol = protocol;
    this.install(protocol);
    const onclose = (): void => {
      const closed = new SdkError('CONNECTION_CLOSED', 'The app connection closed');
      this.failQueue(closed);
      if (!this.ready) this.rejectInitialized(closed);
    };
    protocol.onclose = onclose;
    await protocol.connect(transport);
  }

  /**
   * Answers the sandbox proxy's `ui/notifications/sandbox-proxy-ready` with `resource` (a
   * host page runs the View inside a proxy frame on another origin). Set it before the proxy
   * loads; the proxy is sent it each time it says it is ready.
   */
  serveToSandbox(resource: SandboxResource): void {
    this.sandboxResource = resource;
  }

  /** `ui/notifications/tool-input`: the complete arguments of the tool call the View renders. */
  sendToolInput(args: Record<string, unknown>): Promise<void> {
    return this.notify(Method.UiNotificationsToolInput, { arguments: args });
  }

  /** `ui/notifications/tool-input-partial`: arguments as far as the model has streamed them. */
  sendToolInputPartial(args: Record<string, unknown>): Promise<void> {
    return this.notify(Method.UiNotificationsToolInputPartial, { arguments: args });
  }

  /** `ui/notifications/tool-result`: the tool call's result. */
  sendToolResult(result: Stateful.CallToolResult): Promise<void> {
    return this.notify(Method.UiNotificationsToolResult, result as unknown as Params);
  }

  /** `ui/notifications/tool-cancelled`: the tool call will not finish. */
  sendToolCancelled(reason?: string): Promise<void> {
    return this.notify(Method.UiNotificationsToolCancelled, reason === undefined ? {} : { reason });
  }

  /** Merges `changes` into the host context and tells the View (`ui/notifications/host-context-changed`). */
  updateHostContext(changes: AppHostContext): Promise<void> {
    this.context = { ...this.context, ...(changes as McpUiHostContext) };
    return this.notify(Method.UiNotificationsHostContextChanged, changes as Params);
  }

  /**
   * Asks the View to wind down (`ui/resource-teardown`, waiting at most the request timeout),
   * then closes the connection, whatever the View answered.
   */
  async teardown(): Promise<void> {
    const protocol = this.protocol;
    if (protocol === undefined) return;
    try {
      if (this.ready) await protocol.request<McpUiResourceTeardownResult>(Method.UiResourceTeardown, {});
    } catch (error) {
      this.options.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } finally {
      await this.close();
    }
  }

  /** Closes the connection without asking the View. */
  async close(): Promise<void> {
    await this.protocol?.close();
  }

  private install(protocol: Protocol): void {
    const options = this.options;
    protocol.setRequestHandler<InitializeParams, McpUiInitializeResult>(Method.UiInitialize, (params) => {
      this.appParams = params;
      return {
        // The pinned version is the one the host speaks; a View asking for another decides
        // whether it can go on with this one.
        protocolVersion: latestAppsVersion,
        hostInfo: options.hostInfo,
        hostCapabilities: this.capabilities(),
        hostContext: this.context,
      };
    });
    protocol.setNotificationHandler(Method.UiNotificationsInitialized, () => this.markReady());
    // The proxy, not the View, sends this; the rule that nothing goes to the View before it is
    // initialized does not cover the proxy's resource.
    protocol.setNotificationHandler(Method.UiNotificationsSandboxProxyReady, async () => {
      if (this.sandboxResource !== undefined) await protocol.notification(Method.UiNotificationsSandboxResourceReady, this.sandboxResource as unknown as Params);
    });
    protocol.setRequestHandler(Method.Ping, () => ({}));
    protocol.setRequestHandler<Params, unknown>(Method.ToolsCall, async (params, context) => {
      const name = params.name as string;
      await this.checkCallable(name);
      return options.client.request(Method.ToolsCall, params as never, { signal: context.signal });
    });
    protocol.setRequestHandler<Params, unknown>(Method.ResourcesRead, (params, context) => options.client.request(Method.ResourcesRead, params as never, { signal: context.signal }));
    const reply = <P>(method: string, handle: ((params: P) => void | Promise<void>) | undefined) => {
      if (handle !== undefined) protocol.setRequestHandler<P, Record<string, never>>(method, async (params) => (await handle(params), {}));
    };
    reply<{ url: string }>(Method.UiOpenLink, options.openLink === undefined ? undefined : (params) => options.openLink!(params.url));
    reply(Method.UiMessage, options.message);
    reply(Method.UiUpdateModelContext, options.updateModelContext);
    protocol.setRequestHandler<{ mode: McpUiDisplayMode }, { mode: McpUiDisplayMode }>(Method.UiRequestDisplayMode, async ({ mode }) => {
      const current = this.context.displayMode ?? 'inline';
      const set = options.requestDisplayMode === undefined ? current : await options.requestDisplayMode(mode);
      if (set !== current) this.context = { ...this.context, displayMode: set };
      return { mode: set };
    });
    protocol.setNotificationHandler<NonNullable<McpUiSizeChangedNotification['params']>>(Method.UiNotificationsSizeChanged, (params) => options.sizeChanged?.(params));
    protocol.setNotificationHandler(Method.UiNotificationsRequestTeardown, () => options.teardownRequested?.());
  }

  private capabilities(): McpUiHostCapabilities {
    const options = this.options;
    return {
      serverTools: {},
      serverResources: {},
      ...(options.openLink !== undefined ? { openLinks: {} } : {}),
      ...(options.message !== undefined ? { message: { text: {} } } : {}),
      ...(options.updateModelContext !== undefined ? { updateModelContext: { text: {}, structuredContent: {} } } : {}),
      ...options.hostCapabilities,
    };
  }

  /** Refuses a tool the View may not call: unknown to the server, or without `app` in its visibility. */
  private async checkCallable(name: string): Promise<void> {
    let tool = this.tools?.get(name);
    if (tool === undefined && Date.now() - this.toolsFetchedAt >= (this.options.toolListTtlMs ?? 1_000)) {
      this.toolsFetchedAt = Date.now();
      const list = await (this.options.listTools ?? (() => this.options.client.listAll(Method.ToolsList) as Promise<Stateful.Tool[]>))();
      this.tools = new Map(list.map((entry) => [entry.name, entry]));
      tool = this.tools.get(name);
    }
    if (tool === undefined) throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `params.name: the server has no tool ${JSON.stringify(name)}`);
    if (!appCallable(tool)) throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `params.name: tool ${JSON.stringify(name)} is not callable by apps (its _meta.ui.visibility lacks "app")`);
  }

  private notify(method: string, params: Params | undefined): Promise<void> {
    const protocol = this.protocol;
    if (protocol === undefined) return Promise.reject(new SdkError('NOT_CONNECTED', 'AppHost is not connected'));
    if (this.ready) return protocol.notification(method, params);
    // The spec forbids sending to the View before it says it is initialized.
    if (this.queue.length >= MAX_QUEUED_NOTIFICATIONS) {
      return Promise.reject(new SdkError('SEND_FAILED', `${MAX_QUEUED_NOTIFICATIONS} notifications already wait for the app to initialize`));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ method, params, settle: (error) => (error === undefined ? resolve() : reject(error)) });
    });
  }

  private markReady(): void {
    if (this.ready || this.appParams === undefined) return;
    this.ready = true;
    this.resolveInitialized(this.appParams);
    for (const entry of this.queue.splice(0)) {
      this.protocol!.notification(entry.method, entry.params).then(() => entry.settle(), entry.settle);
    }
  }

  private failQueue(error: Error): void {
    for (const entry of this.queue.splice(0)) entry.settle(error);
  }
}
