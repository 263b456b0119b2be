/**
 * The session contract: what a server transport needs from whatever it serves, so that the
 * transports (the HTTP handler, stdio) never import the Server. The Server implements it; the
 * HTTP handler takes a {@link SessionFactory} and creates one session per MCP session (or per
 * request in stateless modes).
 */
import type { Stateful } from '../../generated/latest.js';
import type { RevisionModule } from './contract.js';
import type { Transport } from './transport.js';

/** The negotiated state of a stateful session, as {@link ServedSession.restoreSession} takes it. */
export interface RestoredSessionState {
  /** The negotiated stateful revision. */
  readonly protocolVersion: string;
  readonly clientCapabilities: Stateful.ClientCapabilities;
  readonly clientInfo: Stateful.Implementation;
  /** Whether `notifications/initialized` arrived. */
  readonly initialized: boolean;
  /** The level set with `logging/setLevel`, if any. */
  readonly loggingLevel?: Stateful.LoggingLevel | undefined;
}

/**
 * One `x-mcp-header` parameter of a tool (the stateless era's `Mcp-Param-*` headers), as the
 * served session reports it and the HTTP transport checks it against the arguments.
 */
export interface ToolHeaderParameter {
  /** The `x-mcp-header` value, i.e. `Region` for `Mcp-Param-Region`. */
  readonly name: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  readonly path: readonly string[];
  /** The parameter's JSON type, which decides how header and body values compare. */
  readonly type: 'string' | 'integer' | 'boolean';
}

/** The engine of a served session as a transport sees it: the bound revision and the handled methods. */
export interface SessionEngine {
  /** The revision module the session's engine is bound to (the negotiated one once negotiated). */
  readonly revision: RevisionModule | undefined;
  /** Whether a handler answers incoming request `method`. */
  handles(method: string): boolean;
  /**
   * Whether a stateless-era HTTP request for `method` must carry `Mcp-Name` (default: yes,
   * when the params name a tool, prompt, resource or task; an engine without this says yes).
   */
  requiresNameHeader?(method: string): boolean;
}

/** What a server transport serves: a Server, or anything that behaves like one toward its transport. */
export interface ServedSession {
  /** Starts serving on `transport`. */
  connect(transport: Transport): Promise<void>;
  /** Ends the session (open streams get their closing results) and closes its transport. */
  close(): Promise<void>;
  /** The engine: its bound revision decides batching and priming for the transport. */
  readonly protocol: SessionEngine;
  /** The negotiated revision, once negotiated. */
  readonly protocolVersion: string | undefined;
  /** Every revision the session may speak. */
  readonly supportedRevisions: readonly string[];
  /** The capabilities the client declared, once it declared them. */
  readonly clientCapabilities: Stateful.ClientCapabilities | undefined;
  /** The client's name and version from `initialize`. */
  readonly clientInfo: Stateful.Implementation | undefined;
  /** True once the client completed the handshake (or the stateless era needs none). */
  readonly isInitialized: boolean;
  /** The level the client asked for with `logging/setLevel`, if any. */
  readonly loggingLevel: Stateful.LoggingLevel | undefined;
  /** Puts the session into a state negotiated elsewhere (another replica, or before a restart). */
  restoreSession(state: RestoredSessionState): void;
  /** The `x-mcp-header` parameters of a tool, where the session knows its tools. */
  readonly toolHeaderParameters?: ((toolName: string) => readonly ToolHeaderParameter[] | undefined) | undefined;
}

/** Creates the session a new connection is served by (a Server per MCP session, say). */
export type SessionFactory = () => ServedSession | Promise<ServedSession>;
