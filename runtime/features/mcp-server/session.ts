import type * as Stateful from '../../../generated/protocol/stateful.js';
import type { Server } from '../../peers/server.js';

/**
 * One connection of an {@link McpServer}: the low-level Server serving it and what the server
 * keeps per client (resource subscriptions). Handlers reach it as `context.session`.
 *
 * @example
 * ```ts
 * import { McpServer } from 'mcpgen';
 * import { StdioServerTransport } from 'mcpgen/node';
 *
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * const session = await mcp.connect(new StdioServerTransport());
 * console.log(session.clientInfo?.name, session.protocolVersion);
 * mcp.registerTool('beta', { available: (s) => s.clientInfo?.name === 'beta-client' }, () => ({ content: [] }));
 * ```
 */
export class McpSession {
  /** The low-level server of this connection (custom methods, raw requests). */
  readonly server: Server;
  /** What the server declared to this client (derived from what was registered when it connected). */
  readonly capabilities: Stateful.ServerCapabilities;
  /** URIs this client subscribed to with `resources/subscribe`. */
  readonly subscriptions = new Set<string>();
  /** When the session began, in list-change epochs: earlier changes are not announced to it. */
  readonly epoch: number;

  constructor(server: Server, capabilities: Stateful.ServerCapabilities, epoch = 0) {
    this.server = server;
    this.capabilities = capabilities;
    this.epoch = epoch;
  }

  /** The negotiated protocol revision, once initialized. */
  get protocolVersion(): string | undefined {
    return this.server.protocolVersion;
  }

  /** What the client declared in `initialize`. */
  get clientCapabilities(): Stateful.ClientCapabilities | undefined {
    return this.server.clientCapabilities;
  }

  /** The client's name and version. */
  get clientInfo(): Stateful.Implementation | undefined {
    return this.server.clientInfo;
  }

  /** True once the client sent `notifications/initialized`. */
  get isInitialized(): boolean {
    return this.server.isInitialized;
  }

  /** True when the negotiated revision has `method` (e.g. `elicitation/create` from 2025-06-18). */
  supports(method: string): boolean {
    return this.server.supports(method);
  }

  /**
   * Tells this client that the out-of-band interaction of a URL-mode elicitation finished
   * (`notifications/elicitation/complete`); only the client that was asked may be told.
   */
  notifyElicitationComplete(elicitationId: string): Promise<void> {
    return this.server.notifyElicitationComplete({ elicitationId });
  }

  /** Closes this connection. */
  close(): Promise<void> {
    return this.server.close();
  }
}
