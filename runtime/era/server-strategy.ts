/**
 * What a Server does differently per era, behind one interface: how it admits a request (the
 * revision to load, the state a request settles), how it runs a handler (as it is, through the
 * multi round-trip runner, or not before `initialize`) and where a notification that belongs to
 * no request goes. The Server holds the strategy of its negotiated state, replaced only when
 * that state changes era.
 */
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

/**
 * What the three strategies share. They are classes, so that a Server (built per stateless HTTP
 * request) makes three small objects rather than a dozen closures.
 */
abstract class EraStrategy implements ServerEraStrategy {
  constructor(
    protected readonly host: ServerEraHost,
    readonly era: Era | undefined,
    readonly handshakeFree: boolean,
    readonly restorable: boolean,
  ) {}

  abstract revisionFor(request: JSONRPCRequest): string | undefined;
  abstract admit(request: JSONRPCRequest): ProtocolError | undefined;
  abstract run(method: string, handler: RequestHandler, params: Params | undefined, context: RequestContext): unknown;

  notify(method: string, params: unknown, options: { relatedRequestId?: string | number | undefined } | undefined): Promise<void> {
    return this.host.notify(method, params, options);
  }
}

/** Before anything is negotiated: the first `initialize` or stateless request decides. */
class Unopened extends EraStrategy {
  constructor(host: ServerEraHost) {
    super(host, undefined, false, true);
  }

  revisionFor(request: JSONRPCRequest): string | undefined {
    return revisionForRequest(request, true, this.host.versions);
  }

  admit(request: JSONRPCRequest): ProtocolError | undefined {
    return admitRequest(request, this.host);
  }

  run(method: string): unknown {
    throw new ProtocolError(this.host.bound!.errorCodes.INVALID_REQUEST!, `Received ${method} before initialize`);
  }
}

/** A session's revision is settled: every request is admitted as it is, `_meta` is just metadata. */
class StatefulEra extends EraStrategy {
  constructor(host: ServerEraHost) {
    super(host, 'stateful', false, true);
  }

  revisionFor(): string | undefined {
    return undefined;
  }

  admit(): ProtocolError | undefined {
    return undefined;
  }

  run(_method: string, handler: RequestHandler, params: Params | undefined, context: RequestContext): unknown {
    return handler(params, context);
  }
}

/** Each request names its revision in `_meta` and runs through the multi round-trip runner. */
class StatelessEra extends EraStrategy {
  constructor(host: ServerEraHost) {
    super(host, 'stateless', true, false);
  }

  revisionFor(request: JSONRPCRequest): string | undefined {
    const needed = revisionForRequest(request, false, this.host.versions);
    // The bound revision is in memory: nothing to load.
    return needed === this.host.bound?.revision ? undefined : needed;
  }

  admit(request: JSONRPCRequest): ProtocolError | undefined {
    return admitRequest(request, this.host);
  }

  run(_method: string, handler: RequestHandler, params: Params | undefined, context: RequestContext): unknown {
    return runStateless(this.host.stateless, this.host.bound!, handler, params, context);
  }

  /**
   * A notification that belongs to no request is a change notification: it goes to the
   * `subscriptions/listen` streams that opted in to it, or nowhere.
   */
  override async notify(method: string, params: unknown, options: { relatedRequestId?: string | number | undefined } | undefined): Promise<void> {
    if (options?.relatedRequestId !== undefined) return this.host.notify(method, params, options);
    await this.host.subscriptions.publish(method, params as Params | undefined);
  }
}

/** The three strategies of the Server behind `host`. */
export function serverEras(host: ServerEraHost): ServerEras {
  return { none: new Unopened(host), stateful: new StatefulEra(host), stateless: new StatelessEra(host) };
}
