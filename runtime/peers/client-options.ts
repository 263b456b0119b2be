import type { JsonSchemaValidator } from '../json-schema/types.js';
/** The public option and handler types of {@link Client}. */
import type { Stateful, Stateless } from '../../generated/latest.js';
import type { CapabilitiesOf, ProtocolTypesShape } from './protocol-types.js';
import type { NotificationContext, RequestContext, RequestOptions } from '../core/request-context.js';
import type { EraCache } from '../era/client-era.js';
import type { ResponseCacheOptions } from '../era/client-response-cache.js';
import type { BothEras, HandledParams, HandledRequests, HandledResult } from './client-types.js';
import type { EndpointOptions } from './endpoint.js';

type Defaults = BothEras;
type ClientRequests = Stateful.ClientRequestMap;

/** Options of a {@link Client}. */
export interface ClientOptions<T extends ProtocolTypesShape = Defaults> extends EndpointOptions {
  /** What this client offers (sampling, roots, elicitation…); fixed for the life of the client. */
  readonly capabilities?: CapabilitiesOf<T, 'clientCapabilities', Stateful.ClientCapabilities>;
  /** Revisions this client accepts (default: every released stateful revision). */
  readonly supportedRevisions?: readonly string[];
  /**
   * The version this client prefers (default: the newest supported one, 2026-07-28). A
   * stateless-era version is tried first with `server/discover`; a stateful one is asked for
   * in `initialize` directly.
   */
  readonly protocolVersion?: string;
  /**
   * How the era is chosen. `auto` (default): when the preferred version is of the stateless era,
   * probe with `server/discover` and fall back to the `initialize` handshake when the server
   * answers like an older server (method not found, another error that is not one of the
   * stateless era's, an HTTP 4xx without such an error, or no answer in time). `pin`: speak the
   * preferred version's era only, failing instead of falling back.
   */
  readonly negotiation?: NegotiationMode;
  /**
   * Remembers each server's era so that the next connection skips the probe (default: an
   * in-memory cache shared by all Clients of the process; `false` turns caching off).
   */
  readonly eraCache?: EraCache | false;
  /** The identity the era cache files this server under (default: the transport's URL or command line). */
  readonly serverKey?: string;
  /** Most rounds of a multi round-trip request before SdkError('INPUT_ROUNDS_EXCEEDED') (default 10). */
  readonly maxInputRounds?: number;
  /**
   * Caches results the server marks with `ttlMs` (lists, resource reads) in the stateless era,
   * until they expire or a matching change notification arrives (default on; `false` turns it off).
   */
  readonly responseCache?: boolean | ResponseCacheOptions;
  /** The log level to ask for on every request in the stateless era (default: none, so no log messages). */
  readonly logLevel?: Stateless.LoggingLevel;
  /** Send `clientInfo` in every request's `_meta` in the stateless era (default true). */
  readonly sendClientInfo?: boolean;
  /**
   * Check each `tools/call` result against the output schema of the tool as the server listed
   * it (default true, as the tools page asks of clients): a successful result whose
   * `structuredContent` is missing or does not conform fails with SdkError('INVALID_RESULT').
   * Tools called before any `tools/list` go unchecked. A JsonSchemaValidator here replaces the
   * interpreting one; false turns the check off.
   */
  readonly validateToolOutput?: boolean | JsonSchemaValidator;
}

/** How a {@link Client} picks the protocol era; see {@link ClientOptions.negotiation}. */
export type NegotiationMode = 'auto' | 'pin';

/** A handler for server→client request `M`. */
export type ClientRequestHandler<M extends keyof HandledRequests<T>, T extends ProtocolTypesShape = Defaults> = (
  params: HandledParams<T, M>,
  context: RequestContext,
) => HandledResult<T, M> | Promise<HandledResult<T, M>>;

/** A handler for server→client notification `M`. */
export type ClientNotificationHandler<M extends keyof T['serverNotifications'], T extends ProtocolTypesShape = Defaults> = (
  params: T['serverNotifications'][M]['params'],
  context: NotificationContext,
) => void | Promise<void>;

/** Client→server list methods whose results page with `nextCursor`. */
export type PaginatedMethod = {
  [M in keyof ClientRequests]: ClientRequests[M]['result'] extends { nextCursor?: string } ? M : never;
}[keyof ClientRequests];

/** The item type of a paginated list method (`Tool` for tools/list). */
export type PageItem<M extends PaginatedMethod> = {
  [K in keyof ClientRequests[M]['result']]-?: K extends '_meta' | 'nextCursor' ? never : NonNullable<ClientRequests[M]['result'][K]> extends ReadonlyArray<infer I> ? I : never;
}[keyof ClientRequests[M]['result']];

/** Options of {@link Client.listAll}. */
export interface ListAllOptions extends RequestOptions {
  /** Stop with SdkError('PAGE_LIMIT') after this many pages (default 100). */
  readonly maxPages?: number;
}

/** An open `subscriptions/listen` stream (see {@link Client.listen}). */
export interface ListenSubscription {
  /** The notification kinds the server agreed to send. */
  readonly acknowledged: Stateless.SubscriptionFilter;
  /** Settles when the stream ends: resolves when the server ended it or it was closed here. */
  readonly ended: Promise<void>;
  /** Ends the stream. */
  close(): void;
}
