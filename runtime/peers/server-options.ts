/**
 * What a Server is configured with, and the handler types it dispatches to (typed from the
 * generated method tables).
 */
import type * as Stateful from '../../generated/protocol/stateful.js';
import type { CapabilitiesOf, ProtocolTypesShape } from './protocol-types.js';
import type { NotificationContext, RequestContext } from '../core/request-context.js';
import type { RestoredSessionState } from '../core/session.js';
import type { CacheHint } from '../era/subscriptions.js';
import type { RequestStateCodec, RequestStateOptions } from '../era/request-state.js';
import type { EndpointOptions } from './endpoint.js';

type Defaults = Stateful.ProtocolTypes;

/** Options of a `Server`. */
export interface ServerOptions<T extends ProtocolTypesShape = Defaults> extends EndpointOptions {
  /** What this server offers; fixed for the life of the server. */
  readonly capabilities?: CapabilitiesOf<T, 'serverCapabilities', Stateful.ServerCapabilities>;
  /** Guidance for the model, sent in the initialize result. */
  readonly instructions?: string;
  /**
   * Revisions to serve (default: every released revision of both eras). Stateful ones are
   * negotiated over `initialize`; stateless ones (2026-07-28 on) are served per request. A
   * list with only stateless revisions refuses the handshake; one with only stateful ones
   * answers stateless requests as an older server would.
   */
  readonly supportedRevisions?: readonly string[];
  /**
   * How multi round-trip requests protect their `requestState` (keys, encryption, expiry,
   * round cap), or a codec shared with other servers. Default: one random key per process,
   * which is right for a single replica; replicas behind a load balancer need shared keys.
   */
  readonly requestState?: RequestStateOptions | RequestStateCodec;
  /** Cache hint of the `server/discover` result (default: `ttlMs` 0, `cacheScope` 'private'). */
  readonly discoverCache?: CacheHint;
}

/** The negotiated state of a stateful session, as `Server.restoreSession` takes it. */
export type { RestoredSessionState };

/** A handler for client→server request `M`: exact params in, exact result out. */
export type ServerRequestHandler<M extends keyof T['clientRequests'], T extends ProtocolTypesShape = Defaults> = (
  params: T['clientRequests'][M]['params'],
  context: RequestContext,
) => T['clientRequests'][M]['result'] | Promise<T['clientRequests'][M]['result']>;

/** A handler for client→server notification `M`. */
export type ServerNotificationHandler<M extends keyof T['clientNotifications'], T extends ProtocolTypesShape = Defaults> = (
  params: T['clientNotifications'][M]['params'],
  context: NotificationContext,
) => void | Promise<void>;
