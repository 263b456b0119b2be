/**
 * What a Server does differently per era, behind one interface: how it admits a request (the
 * revision to load, the state a request settles), how it runs a handler (as it is, through the
 * multi round-trip runner, or not before `initialize`) and where a notification that belongs to
 * no request goes. The Server holds the strategy of its negotiated state, replaced only when
 * that state changes era.
 */
import type { RevisionModule } from '../core/contract.js';
import { ProtocolError } from '../core/errors.js';
import type { JSONRPCRequest } from '../core/jsonrpc.js';
import type { Params, RequestContext, RequestHandler } from '../core/request-context.js';
import { admitRequest, revisionForRequest, type AdmissionHost } from './server-admission.js';
import type { Era } from './negotiated.js';
import { runStateless, type StatelessHost } from './stateless-request.js';
import type { Subscriptions } from './subscriptions.js';

/** What a server strategy needs of its Server. */
export interface ServerEraHost extends AdmissionHost {
  /** What the multi round-trip runner needs. */
  readonly stateless: StatelessHost;
  /** The `subscriptions/listen` streams change notifications go to in the stateless era. */
  readonly subscriptions: Subscriptions;
  /** Sends a notification on the connection (the Endpoint's send). */
  notify(method: string, params: unknown, options: { relatedRequestId?: string | number | undefined } | undefined): Promise<void>;
}

/** How a Server serves one era, or a connection that has negotiated none yet. */
export interface ServerEraStrategy {
  /** The era, undefined before a request or `initialize` settled one. */
  readonly era: Era | undefined;
  /** Whether requests are served without the `notifications/initialized` of a handshake. */
  readonly handshakeFree: boolean;
  /** Whether a stateful session may be restored into this state ({@link Server.restoreSession}). */
  readonly restorable: boolean;
  /** The revision to load before `request` is admitted; undefined when the bound one serves it. */
  revisionFor(request: JSONRPCRequest): string | undefined;
  /** Binds the revision `request` needs and settles the state it negotiates; the error to answer instead, if any. */
  admit(request: JSONRPCRequest): ProtocolError | undefined;
  /** Runs `handler` (the incoming middlewares around the user's handler) for request `method`. */
  run(method: string, handler: RequestHandler, params: Params | undefined, context: RequestContext): unknown;
  /** Sends a notification; `options.relatedRequestId` ties it to a request. */
  notify(method: string, params: unknown, options: { relatedRequestId?: string | number | undefined } | undefined): Promise<void>;
}

/** The strategies of one Server, one per state its connection can be in. */
export interface ServerEras {
  /** Nothing negotiated: the first `initialize` or stateless request decides. */
  readonly none: ServerEraStrategy;
  readonly stateful: ServerEraStrategy;
  readonly stateless: ServerEraStrategy;
}

/** The three strategies of the Server behind `host`. */
export function serverEras(host: ServerEraHost): ServerEras {
  const notify = (method: string, params: unknown, options: { relatedRequestId?: string | number | undefined } | undefined): Promise<void> =>
    host.notify(method, params, options);
  const bound = (): RevisionModule => host.bound!;
  return {
    none: {
      era: undefined,
      handshakeFree: false,
      restorable: true,
      revisionFor: (request) => revisionForRequest(request, true, host.versions),
      admit: (request) => admitRequest(request, host),
      run: (method) => {
        throw new ProtocolError(bound().errorCodes.INVALID_REQUEST!, `Received ${method} before initialize`);
      },
      notify,
    },
    // A session's revision is settled: every request is admitted as it is, `_meta` is just metadata.
    stateful: {
      era: 'stateful',
      handshakeFree: false,
      restorable: true,
      revisionFor: () => undefined,
      admit: () => undefined,
      run: (_method, handler, params, context) => handler(params, context),
      notify,
    },
    stateless: {
      era: 'stateless',
      handshakeFree: true,
      restorable: false,
      revisionFor: (request) => revisionForRequest(request, false, host.versions),
      admit: (request) => admitRequest(request, host),
      run: (_method, handler, params, context) => runStateless(host.stateless, bound(), handler, params, context),
      // A notification that belongs to no request is a change notification: it goes to the
      // `subscriptions/listen` streams that opted in to it, or nowhere.
      notify: async (method, params, options) => {
        if (options?.relatedRequestId !== undefined) return host.notify(method, params, options);
        await host.subscriptions.publish(method, params as Params | undefined);
      },
    },
  };
}
