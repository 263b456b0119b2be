/**
 * What a {@link ConnectionManager} can be told: its limits and timeouts, the prompts it shows
 * the user, how it authorizes remote servers, and what it reports.
 */
import type * as Stateful from '../../../generated/protocol/stateful.js';
import type { Client } from '../../peers/client.js';
import type { CachedListKind } from '../../peers/client-helpers/list-cache.js';
import type { ConfigDiagnostic } from './config.js';
import type { FormElicitationHandler } from './form-elicitation.js';
import type { NodeOAuth, OAuthProviderFactory } from './oauth.js';
import type { ResultSizingOptions } from './result-sizing.js';
import type { ReconnectSettings, ServerStatus } from './server-connection.js';
import type { ApprovalRequest } from './trust.js';
import type { UrlElicitationHandler } from './url-elicitation.js';

/** Default connect timeout: 30 s (`MCP_TIMEOUT` overrides it). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** Default timeout of each request: 60 s. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** Stdio servers started at once by default. */
export const DEFAULT_LOCAL_CONCURRENCY = 3;
/** Remote servers connected at once by default. */
export const DEFAULT_REMOTE_CONCURRENCY = 20;

/** Options of a {@link ConnectionManager}. */
export interface ConnectionManagerOptions {
  /** The name and version the clients announce (default `mcpgen-host`). */
  readonly clientInfo?: Stateful.Implementation | undefined;
  /** Capabilities the clients declare (install their handlers with `configureClient`). */
  readonly capabilities?: Stateful.ClientCapabilities | undefined;
  readonly localConcurrency?: number | undefined;
  readonly remoteConcurrency?: number | undefined;
  /** Connect timeout; default `MCP_TIMEOUT` from `env` (milliseconds), else 30 s. */
  readonly connectTimeoutMs?: number | undefined;
  /** Timeout of each request; default 60 s. */
  readonly callTimeoutMs?: number | undefined;
  /** Where `MCP_TIMEOUT` is read from; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Reconnection of lost remote servers; `false` turns it off. */
  readonly reconnect?: ReconnectSettings | false | undefined;
  /** Characters of stderr kept per stdio server (default 64 Ki). */
  readonly stderrCapacity?: number | undefined;
  /**
   * Shows the URLs of a URL-elicitation-required refusal (-32042) to the user; the request is
   * retried (up to 3 times) when it resolves true. Setting it declares `elicitation.url`.
   */
  readonly onUrlElicitation?: UrlElicitationHandler | undefined;
  /**
   * Asks the user for the values of a form-mode `elicitation/create` (in a 2025 session or as a
   * 2026-07-28 input request). Setting it declares `elicitation.form`; without it such requests
   * are declined.
   */
  readonly onFormElicitation?: FormElicitationHandler | undefined;
  /** Installs handlers (sampling, roots) on each new client. */
  readonly configureClient?: ((client: Client, server: string) => void) | undefined;
  readonly onstatus?: ((server: string, status: ServerStatus) => void) | undefined;
  /** A server's tools, resources or prompts changed (the cache was dropped). */
  readonly onlistchanged?: ((server: string, kind: CachedListKind) => void) | undefined;
  readonly onstderr?: ((server: string, chunk: string) => void) | undefined;
  /** Names whose configuration entry was malformed; they are listed as failed. */
  readonly rejected?: ReadonlyMap<string, ConfigDiagnostic> | undefined;
  /**
   * Project and local entries awaiting the user's approval (`LoadedConfig.pending`); a name
   * with no other entry is listed as `needs-approval` and never connected.
   */
  readonly pending?: readonly ApprovalRequest[] | undefined;
  /** How long a stdio server gets to exit after its stdin closes, and after SIGTERM. */
  readonly closeTimeoutMs?: number | undefined;
  readonly killTimeoutMs?: number | undefined;
  /**
   * OAuth for remote servers. A factory (e.g. `new NodeOAuth().factory`, which covers every
   * remote server) returns the provider of each entry, or undefined for none; a
   * {@link NodeOAuth} is used through its factory and also serves {@link ConnectionManager.login}.
   * Default: entries with an `oauth` setting use a {@link NodeOAuth} on the user config
   * directory (found through `env`), and the others answer HTTP 401 with `needs-auth`.
   * `false`: no OAuth at all.
   */
  readonly oauth?: OAuthProviderFactory | NodeOAuth | false | undefined;
  /**
   * How `callTool` sizes results for a model (see {@link ResultSizer}): by default results over
   * 100 000 characters are truncated with a notice; `false` returns what the server sent.
   */
  readonly resultSizing?: ResultSizingOptions | false | undefined;
}
