/**
 * What a Client does differently per era, behind one interface: how a request goes out (as it
 * is, or in the stateless envelope), and how its result comes back (as it is, or through the
 * response cache, the multi round-trip rounds and what results teach). The Client picks one
 * strategy when its state is negotiated and sends every request through it.
 */
import type { RevisionModule } from '../core/contract.js';
import type { Params, RequestOptions } from '../core/request-context.js';
import { isJsonObject } from '../core/jsonrpc.js';
import type { ResponseCache } from './client-response-cache.js';
import { continueInputRounds, isInputRequired } from './client-mrtr.js';
import { acceptsInput } from './input-broker.js';
import { enveloped, type Era, type Negotiated } from './negotiated.js';

/** What a client strategy needs of its Client. */
export interface ClientEraHost {
  /** The negotiated state; a stateless one carries the request envelope. */
  readonly state: Negotiated | undefined;
  /** The revision bound to the engine. */
  readonly revision: RevisionModule | undefined;
  /** The response cache, when enabled. */
  readonly cache: ResponseCache | undefined;
  /** Most rounds of one multi round-trip request. */
  readonly maxInputRounds: number;
  /** Timeout of requests that set none, the budget of all rounds of one request. */
  readonly defaultTimeoutMs: number;
  /** Sends one JSON-RPC request after the capability check (the Endpoint's send). */
  transmit(method: string, params: unknown, options: RequestOptions | undefined): Promise<unknown>;
  /** Keeps what a result says about tools and returns what the caller gets (see ToolCatalog.observe). */
  observe(method: string, params: unknown, result: unknown, mirrored: boolean): unknown;
  /** Whether the transport mirrors tool parameters into headers (whose schemas a result teaches). */
  readonly mirrorsToolParameters: boolean;
  /** Takes the server's identity from a result's `_meta`, if it carries a valid one. */
  noteIdentity(result: { readonly [key: string]: unknown }): void;
  /** Answers one input request of an `InputRequiredResult` with the registered handler. */
  fulfil(key: string, method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
}

/** How a Client speaks one era. */
export interface ClientEraStrategy {
  readonly era: Era;
  /** Whether the era has `subscriptions/listen` streams. */
  readonly listens: boolean;
  /** Sends request `method` and returns the result the caller gets. */
  send(method: string, params: unknown, options: RequestOptions | undefined): Promise<unknown>;
}

/**
 * The stateful era (and a Client not yet connected, whose sends fail NOT_CONNECTED in the
 * Endpoint): requests go as they are; results are only observed for tool schemas.
 */
export function statefulClientEra(host: ClientEraHost): ClientEraStrategy {
  return {
    era: 'stateful',
    listens: false,
    send: async (method, params, options) => host.observe(method, params, await host.transmit(method, params, options), false),
  };
}

/**
 * The stateless era: each request carries the envelope in `_meta`; cacheable results are
 * answered from the cache; an `InputRequiredResult` is followed through its rounds to the final
 * result; results teach the server's identity and tool schemas.
 */
export function statelessClientEra(host: ClientEraHost): ClientEraStrategy {
  const learn = (method: string, params: unknown, result: unknown, cacheable: boolean): unknown => {
    if (!isJsonObject(result)) return result;
    host.noteIdentity(result);
    const returned = host.observe(method, params, result, host.mirrorsToolParameters);
    // Only results the schema gives cache hints carry them; an extension's `ttlMs` (a task's lifetime) is no hint.
    if (cacheable) host.cache?.store(method, params, returned);
    return returned;
  };
  return {
    era: 'stateless',
    listens: true,
    send: async (method, params, options) => {
      const requestMeta = host.state!.requestMeta!;
      const revision = host.revision!;
      const cacheable = revision.methods[method]?.cacheable === true;
      if (cacheable) {
        const cached = host.cache?.lookup(method, params);
        if (cached !== undefined) return cached;
      }
      const given = (params ?? {}) as Params;
      // The first round is an ordinary request; the rounds of a server that asks for input
      // (their shared budget, retries, answers) are set up only once one does.
      const started = Date.now();
      let result = await host.transmit(method, enveloped(given, requestMeta), options);
      if (isInputRequired(result) && acceptsInput(revision, method)) {
        result = await continueInputRounds(method, given, result, options ?? {}, {
          send: (sent, roundOptions) => host.transmit(method, enveloped(sent, host.state?.requestMeta ?? requestMeta), roundOptions),
          fulfil: (key, inputMethod, inputParams, signal) => host.fulfil(key, inputMethod, inputParams, signal),
        }, { maxRounds: host.maxInputRounds, timeoutMs: options?.timeout ?? host.defaultTimeoutMs, startedAt: started });
      }
      return learn(method, params, result, cacheable);
    },
  };
}
