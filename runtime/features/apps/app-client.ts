/**
 * The View's side of an app connection, for code running in the iframe: the `ui/initialize`
 * handshake with the host, tool input and results as they arrive, server tools and resources
 * through the host, and size reports. The View is the client of the postMessage connection.
 */
import {
  coreRevision,
  extensionModule,
  protocolVersion,
  type McpUiAppCapabilities,
  type McpUiHostCapabilities,
  type McpUiHostContext,
  type McpUiInitializeResult,
  type McpUiMessageRequest,
  type McpUiUpdateModelContextRequest,
} from '../../../generated/extensions/apps/index.js';
import { coreRevisionModule } from '../../../generated/extensions/apps/core.js';
import { Method } from '../../../generated/methods.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { SdkError } from '../../core/errors.js';
import { Protocol } from '../../core/protocol.js';
import type { Params, RequestOptions } from '../../core/request-context.js';
import type { Transport } from '../../core/transport.js';
import { registerExtensionModule } from '../../peers/extension.js';
import { PostMessageTransport, windowEndpoint, type MessageSourceLike, type WindowLike } from './post-message-transport.js';

/** What the View does with the host's notifications; each is optional. */
export interface AppClientHandlers {
  /** The complete arguments of the tool call the View renders. */
  readonly onToolInput?: (args: Record<string, unknown>) => void;
  /** Arguments as far as the model has streamed them (may change, may be incomplete). */
  readonly onToolInputPartial?: (args: Record<string, unknown>) => void;
  /** The tool call's result. */
  readonly onToolResult?: (result: Stateful.CallToolResult) => void;
  /** The tool call will not finish. */
  readonly onToolCancelled?: (reason: string | undefined) => void;
  /** Part of the host context changed; `hostContext` already holds the merged context. */
  readonly onHostContextChanged?: (changes: McpUiHostContext) => void;
  /** The host is about to remove the View: save what must survive before this settles. */
  readonly onTeardown?: () => void | Promise<void>;
}

/** Options of an {@link AppClient}. */
export interface AppClientOptions extends AppClientHandlers {
  /** What the View supports (display modes, tools of its own). */
  readonly capabilities?: McpUiAppCapabilities;
  /** Timeout of the View's requests to the host; default 60 s (a relayed tool call may take long). */
  readonly requestTimeoutMs?: number;
  /** Problems with no caller to reject (a bad notification from the host). */
  readonly onerror?: (error: Error) => void;
}

/** The element a View measures for {@link AppClient.autoResize}, structurally. */
export interface MeasuredElement {
  readonly scrollWidth: number;
  readonly scrollHeight: number;
}

/**
 * The View's connection to its host.
 *
 * @example
 * ```ts
 * import { AppClient } from 'mcpgen/apps';
 *
 * const app = new AppClient({ name: 'weather-view', version: '1.0.0' }, {
 *   onToolResult: (result) => {
 *     document.querySelector('#out')!.textContent = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
 *   },
 * });
 * await app.connect(); // to window.parent
 * app.autoResize(document.documentElement);
 * const result = await app.callTool('forecast', { city: 'Porto' });
 * ```
 */
export class AppClient {
  private readonly info: Stateful.Implementation;
  private readonly options: AppClientOptions;
  private protocol: Protocol | undefined;
  private initializeResult: McpUiInitializeResult | undefined;
  private context: McpUiHostContext = {};

  constructor(appInfo: Stateful.Implementation, options: AppClientOptions = {}) {
    this.info = appInfo;
    this.options = options;
  }

  /** The host, once connected. */
  get hostInfo(): Stateful.Implementation | undefined {
    return this.initializeResult?.hostInfo as Stateful.Implementation | undefined;
  }

  /** What the host offers (relayed tools, links, messages …), once connected. */
  get hostCapabilities(): McpUiHostCapabilities | undefined {
    return this.initializeResult?.hostCapabilities;
  }

  /** The host context with every change merged in. */
  get hostContext(): McpUiHostContext {
    return this.context;
  }

  /**
   * Connects to the host and completes the handshake (`ui/initialize`, then
   * `ui/notifications/initialized`). Without a transport it talks to `window.parent`, hearing
   * only messages from that window.
   */
  async connect(transport?: Transport): Promise<McpUiInitializeResult> {
    if (this.protocol !== undefined) throw new SdkError('ALREADY_CONNECTED', 'AppClient is already connected');
    const protocol = new Protocol({ side: 'client', revision: coreRevisionModule, onerror: this.options.onerror, defaultTimeoutMs: this.options.requestTimeoutMs });
    registerExtensionModule({ protocol, extensions: [], protocolVersion: coreRevision }, extensionModule);
    this.protocol = protocol;
    this.install(protocol);
    try {
      await protocol.connect(transport ?? parentTransport());
      const result = await protocol.request<McpUiInitializeResult>(Method.UiInitialize, {
        appInfo: this.info,
        appCapabilities: this.options.capabilities ?? {},
        protocolVersion,
      } as unknown as Params);
      this.initializeResult = result;
      this.context = { ...result.hostContext };
      await protocol.notification(Method.UiNotificationsInitialized, {});
      return result;
    } catch (error) {
      // A failed handshake leaves nothing connected, so connect() may be tried again.
      this.protocol = undefined;
      this.initializeResult = undefined;
      await protocol.close();
      throw error;
    }
  }

  /** Calls a tool of the app's server through the host (which refuses tools not visible to apps). */
  callTool(name: string, args: Record<string, unknown> = {}, options?: RequestOptions): Promise<Stateful.CallToolResult> {
    return this.connected().request<Stateful.CallToolResult>(Method.ToolsCall, { name, arguments: args }, options);
  }

  /** Reads a resource of the app's server through the host. */
  readResource(uri: string, options?: RequestOptions): Promise<Stateful.ReadResourceResult> {
    return this.connected().request<Stateful.ReadResourceResult>(Method.ResourcesRead, { uri }, options);
  }

  /** Asks the host to open `url` (`ui/open-link`); rejects with the host's error when it refuses. */
  async openLink(url: string): Promise<void> {
    await this.connected().request(Method.UiOpenLink, { url });
  }

  /** Sends a message to the conversation as the user (`ui/message`). */
  async sendMessage(content: NonNullable<McpUiMessageRequest['params']>['content']): Promise<void> {
    await this.connected().request(Method.UiMessage, { role: 'user', content } as unknown as Params);
  }

  /** Replaces the context the View gives the model (`ui/update-model-context`). */
  async updateModelContext(params: NonNullable<McpUiUpdateModelContextRequest['params']>): Promise<void> {
    await this.connected().request(Method.UiUpdateModelContext, params as unknown as Params);
  }

  /** Reports the View's size in pixels (`ui/notifications/size-changed`). */
  reportSize(size: { readonly width?: number; readonly height?: number }): Promise<void> {
    return this.connected().notification(Method.UiNotificationsSizeChanged, { ...size });
  }

  /** Asks the host to close the View (`ui/notifications/request-teardown`). */
  requestTeardown(): Promise<void> {
    return this.connected().notification(Method.UiNotificationsRequestTeardown, {});
  }

  /**
   * Reports `element`'s size now and whenever a ResizeObserver (where the runtime has one) sees
   * it change, skipping reports of an unchanged size; returns the function that stops it.
   */
  autoResize(element: MeasuredElement): () => void {
    let last = '';
    const report = () => {
      const size = { width: element.scrollWidth, height: element.scrollHeight };
      const key = `${size.width}x${size.height}`;
      if (key === last) return;
      last = key;
      this.reportSize(size).catch((error: unknown) => this.options.onerror?.(error instanceof Error ? error : new Error(String(error))));
    };
    report();
    const Observer = (globalThis as { ResizeObserver?: new (callback: () => void) => { observe(target: unknown): void; disconnect(): void } }).ResizeObserver;
    if (Observer === undefined) return () => {};
    const observer = new Observer(report);
    observer.observe(element);
    return () => observer.disconnect();
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.protocol?.close();
  }

  private connected(): Protocol {
    if (this.protocol === undefined || this.initializeResult === undefined) throw new SdkError('NOT_CONNECTED', 'AppClient is not connected to its host');
    return this.protocol;
  }

  private install(protocol: Protocol): void {
    const handlers = this.options;
    protocol.setRequestHandler(Method.Ping, () => ({}));
    protocol.setNotificationHandler<{ arguments?: Record<string, unknown> }>(Method.UiNotificationsToolInput, (params) => handlers.onToolInput?.(params.arguments ?? {}));
    protocol.setNotificationHandler<{ arguments?: Record<string, unknown> }>(Method.UiNotificationsToolInputPartial, (params) => handlers.onToolInputPartial?.(params.arguments ?? {}));
    protocol.setNotificationHandler<Stateful.CallToolResult>(Method.UiNotificationsToolResult, (params) => handlers.onToolResult?.(params));
    protocol.setNotificationHandler<{ reason?: string } | undefined>(Method.UiNotificationsToolCancelled, (params) => handlers.onToolCancelled?.(params?.reason));
    protocol.setNotificationHandler<McpUiHostContext>(Method.UiNotificationsHostContextChanged, (changes) => {
      this.context = { ...this.context, ...changes };
      handlers.onHostContextChanged?.(changes);
    });
    protocol.setRequestHandler(Method.UiResourceTeardown, async () => {
      await handlers.onTeardown?.();
      return {};
    });
  }
}

/** The transport to `window.parent`, in a browsing context. */
function parentTransport(): Transport {
  const self = globalThis as unknown as { parent?: WindowLike } & Partial<MessageSourceLike>;
  if (self.parent === undefined || self.addEventListener === undefined || self.parent === (self as unknown)) {
    throw new SdkError('NOT_CONNECTED', 'AppClient.connect() without a transport needs to run in a frame (window.parent)');
  }
  // The View cannot know its host's origin (it may be served from a sandbox origin); the
  // source check limits it to its parent window.
  return new PostMessageTransport(windowEndpoint(self.parent, '*', self as MessageSourceLike));
}
