/**
 * The engine's outgoing traffic: requests (with their ids, pending entries, cancellation) and
 * notifications, checked before they leave (the bound revision lets this side send the method,
 * its params are valid), with the options the transport learns with each message.
 */
import type { RevisionModule } from './contract.js';
import { asError, messageOf, SdkError } from './errors.js';
import { JSONRPC_VERSION, type JSONRPCMessage, type JSONRPCNotification, type JSONRPCRequest, type RequestId } from './jsonrpc.js';
import { paramsIssues, withProgressToken } from './message-params.js';
import { mayBeSentBy, type MethodTable, type ResolvedMethod, type Side } from './method-table.js';
import type { EngineParts } from './protocol-options.js';
import type { PendingRequest } from './pending-requests.js';
import type { NotificationOptions, Params, RequestOptions } from './request-context.js';
import { CANCELLED_NOTIFICATION } from './special-methods.js';
import { revisionFacts, type RevisionFacts } from './revision-facts.js';
import { DELIVERED, type Transport, type TransportSendOptions } from './transport.js';
import { describeIssues } from './validation.js';

/**
 * Turns a request's validated result into what its promise resolves with (a throw rejects it,
 * a promise is followed). `sentAt` is when the request went out (epoch ms), so that what
 * follows can count from there without reading the clock again.
 */
export type RequestFinish = (result: unknown, sentAt: number) => unknown;

/** Calls `transport.send` so that a synchronous throw becomes a rejection. */
export function transmit(transport: Transport, message: JSONRPCMessage | JSONRPCMessage[], options: TransportSendOptions | undefined): Promise<void> {
  try {
    return transport.send(message, options);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The method `side` may send as `kind`; throws SdkError('UNKNOWN_METHOD') for one the bound
 * revision and the custom methods lack, SdkError('WRONG_DIRECTION') for one the peer sends.
 */
export function resolveOutgoing(methods: MethodTable, method: string, kind: ResolvedMethod['kind'], side: Side): ResolvedMethod {
  const info = methods.lookup(method);
  if (info === undefined || info.kind !== kind || info.embedded) {
    const where = methods.revision === undefined ? 'no revision is bound' : `revision ${methods.revision.revision}`;
    throw new SdkError('UNKNOWN_METHOD', `${method} is not a ${kind} of ${where} nor a registered custom ${kind}`);
  }
  if (!mayBeSentBy(info.direction, side)) {
    throw new SdkError('WRONG_DIRECTION', `${method} cannot be sent by the ${side}`);
  }
  return info;
}

/** Throws SdkError('INVALID_PARAMS') naming the fields when `params` do not fit `info`. */
export function checkOutgoingParams(info: ResolvedMethod, params: Params | undefined): void {
  const issues = paramsIssues(info, params);
  if (issues !== null) {
    throw new SdkError('INVALID_PARAMS', `Invalid params for ${info.method}: ${describeIssues(issues, 'params')}`, {
      data: { issues },
    });
  }
}

/** The text a cancellation carries for an abort `reason`. */
export function reasonText(reason: unknown): string {
  return reason === undefined ? 'Request cancelled' : messageOf(reason);
}

/** The rejection of a request its caller aborted. */
export function cancelledError(method: string, reason: unknown): SdkError {
  return new SdkError('REQUEST_CANCELLED', `Request ${method} was cancelled: ${reasonText(reason)}`, { cause: reason });
}

/**
 * What the transport learns with each message: its request, the bound revision's facts, tool
 * schemas. A message that belongs to no request gets one shared object, rebuilt only when the
 * revision or the schema hook changes, so that sending it allocates nothing.
 */
export class SendOptions {
  private revision: RevisionModule | undefined;
  private facts: RevisionFacts | undefined;
  private schemas: ((name: string) => unknown) | undefined;
  private unrelated: TransportSendOptions = {};

  /** The options of a message sent while `revision` is bound, for request `relatedRequestId` if any. */
  of(revision: RevisionModule | undefined, schemas: ((name: string) => unknown) | undefined, relatedRequestId: RequestId | undefined): TransportSendOptions {
    if (revision !== this.revision || schemas !== this.schemas) {
      this.revision = revision;
      this.schemas = schemas;
      this.facts = revision === undefined ? undefined : revisionFacts(revision);
      this.unrelated = { revision: this.facts, toolInputSchema: schemas };
    }
    return relatedRequestId === undefined ? this.unrelated : { relatedRequestId, revision: this.facts, toolInputSchema: schemas };
  }
}

/** What the outgoing side reads from the engine as it sends: mutable hooks and the connection. */
export interface OutboundHost {
  readonly transport: Transport | undefined;
  readonly notificationFilter?: ((method: string, params: Params | undefined) => boolean) | undefined;
  readonly toolInputSchema?: ((name: string) => unknown) | undefined;
}

/** Sends the requests and notifications of one engine. */
export class Outbound {
  private readonly host: OutboundHost;
  private readonly settings: EngineParts;
  private readonly defaultTimeoutMs: number;
  private readonly options = new SendOptions();
  private nextId = 1;

  constructor(host: OutboundHost, settings: EngineParts, defaultTimeoutMs: number) {
    this.host = host;
    this.settings = settings;
    this.defaultTimeoutMs = defaultTimeoutMs;
  }

  /** Sends a request (see Protocol.request); never throws, it rejects. */
  request<R>(method: string, params: Params | undefined, options: RequestOptions, finish?: RequestFinish): Promise<R> {
    // Not async: a throw before sending is a rejection all the same, without a second promise per call.
    try {
      return this.send<R>(method, params, options, finish);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private send<R>(method: string, params: Params | undefined, options: RequestOptions, finish: RequestFinish | undefined): Promise<R> {
    const transport = this.connection();
    const info = resolveOutgoing(this.settings.methods, method, 'request', this.settings.side);
    const { signal } = options;
    if (signal?.aborted === true) {
      throw cancelledError(method, signal.reason);
    }
    const id = this.nextId++;
    options.onRequestId?.(id);
    const tracksProgress = options.onprogress !== undefined || options.resetTimeoutOnProgress === true;
    const sent = tracksProgress ? withProgressToken(params, id) : params;
    if (this.settings.validateOutgoing) checkOutgoingParams(info, sent);
    const message: JSONRPCRequest = sent === undefined
      ? { jsonrpc: JSONRPC_VERSION, id, method }
      : { jsonrpc: JSONRPC_VERSION, id, method, params: sent };
    const sendOptions = this.sendOptions(options.relatedRequestId);
    return new Promise<R>((resolve, reject) => {
      let onResult = finish === undefined ? resolve as (result: unknown) => void : (result: unknown): void => {
        let finished: unknown;
        try {
          finished = finish(result, entry.startedAt);
        } catch (error) {
          reject(error);
          return;
        }
        resolve(finished as R);
      };
      let onError = reject;
      let onAbort: (() => void) | undefined;
      // Only a request with a signal gets closures: to cancel it, and to stop listening once settled.
      if (signal !== undefined) {
        const listener = (): void => {
          const request = this.settings.pending.take(id);
          if (request !== undefined) {
            this.sendCancellation(id, reasonText(signal.reason), options.relatedRequestId);
            request.reject(cancelledError(method, signal.reason));
          }
        };
        const settle = onResult;
        onResult = (result) => {
          signal.removeEventListener('abort', listener);
          settle(result);
        };
        onError = (error) => {
          signal.removeEventListener('abort', listener);
          reject(error);
        };
        onAbort = listener;
      }
      const entry: PendingRequest = {
        id,
        method,
        resultValidator: this.settings.validateIncoming ? info.result : null,
        tracksProgress,
        onprogress: options.onprogress,
        relatedRequestId: options.relatedRequestId,
        timeoutMs: options.timeout ?? this.defaultTimeoutMs,
        resetOnProgress: options.resetTimeoutOnProgress ?? false,
        maxTotalTimeoutMs: options.maxTotalTimeout,
        resolve: onResult,
        reject: onError,
        startedAt: 0,
        deadline: Infinity,
        total: false,
      };
      this.settings.pending.add(entry);
      if (onAbort !== undefined) signal!.addEventListener('abort', onAbort, { once: true });
      const sending = transmit(transport, message, sendOptions);
      if (sending !== DELIVERED) {
        sending.catch((error: unknown) => {
          this.settings.pending.take(id)?.reject(
            new SdkError('SEND_FAILED', `Failed to send ${method}: ${messageOf(error)}`, { cause: error }),
          );
        });
      }
    });
  }

  /** Sends a notification (see Protocol.notification). */
  async notification(method: string, params: Params | undefined, options: NotificationOptions): Promise<void> {
    const transport = this.connection();
    const info = resolveOutgoing(this.settings.methods, method, 'notification', this.settings.side);
    const filter = this.host.notificationFilter;
    if (filter !== undefined && !filter(method, params)) {
      return;
    }
    if (this.settings.validateOutgoing) checkOutgoingParams(info, params);
    const message: JSONRPCNotification = params === undefined
      ? { jsonrpc: JSONRPC_VERSION, method }
      : { jsonrpc: JSONRPC_VERSION, method, params };
    try {
      await transmit(transport, message, this.sendOptions(options.relatedRequestId));
    } catch (error) {
      throw new SdkError('SEND_FAILED', `Failed to send ${method}: ${messageOf(error)}`, { cause: error });
    }
  }

  /** Tells the peer that request `requestId` is abandoned; a failure to send it is reported. */
  sendCancellation(requestId: number, reason: string, relatedRequestId?: RequestId): void {
    if (this.host.transport === undefined) {
      return;
    }
    this.notification(CANCELLED_NOTIFICATION, { requestId, reason }, { relatedRequestId }).catch((error: unknown) => {
      this.settings.report(asError(error));
    });
  }

  /** What the transport learns with each message (see SendOptions). */
  sendOptions(relatedRequestId: RequestId | undefined): TransportSendOptions {
    return this.options.of(this.settings.methods.revision, this.host.toolInputSchema, relatedRequestId);
  }

  private connection(): Transport {
    const transport = this.host.transport;
    if (transport === undefined) {
      throw new SdkError('NOT_CONNECTED', 'Protocol is not connected to a transport');
    }
    return transport;
  }
}
