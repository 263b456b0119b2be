/**
 * What a Client does differently per era, behind one interface: how the connection opens (the
 * `initialize` handshake, or the `server/discover` probe and no handshake), how a request goes
 * out (as it is, or in the stateless envelope), and how its result comes back (as it is, or
 * through the response cache, the multi round-trip rounds and what results teach). The Client
 * picks one strategy when its state is negotiated and sends every request through it.
 */
import type * as Stateful from '../../generated/protocol/stateful.js';
import type * as Stateless from '../../generated/protocol/stateless.js';
import { Method } from '../../generated/methods.js';
import type { CapabilityObject } from './capabilities.js';
import type { RevisionModule } from '../core/contract.js';
import type { RequestFinish } from '../core/outbound.js';
import { SdkError } from '../core/errors.js';
import type { Params, RequestOptions } from '../core/request-context.js';
import { isJsonObject } from '../core/jsonrpc.js';
import type { EraChoice } from './client-era.js';
import { discoverEra } from './client-discovery.js';
import type { ResponseCache } from './client-response-cache.js';
import { continueInputRounds, isInputRequired } from './client-mrtr.js';
import { acceptsInput } from './input-broker.js';
import { chooseRevision, enveloped, statefulState, type Era, type Negotiated, type PeerIdentity } from './negotiated.js';

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
  /**
   * Sends one JSON-RPC request after the capability check (the Endpoint's send). `finish`
   * turns its result into what the promise resolves with (see Protocol.request).
   */
  transmit(method: string, params: unknown, options: RequestOptions | undefined, finish?: RequestFinish): Promise<unknown>;
  /** Keeps what a result says about tools and returns what the caller gets (see ToolCatalog.observe). */
  observe(method: string, params: unknown, result: unknown, mirrored: boolean): unknown;
  /** Whether the transport mirrors tool parameters into headers (whose schemas a result teaches). */
  readonly mirrorsToolParameters: boolean;
  /** Takes the server's identity from a result's `_meta`, if it carries a valid one. */
  noteIdentity(result: { readonly [key: string]: unknown }): void;
  /** Answers one input request of an `InputRequiredResult` with the registered handler. */
  fulfil(key: string, method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  /** What opening a connection needs. */
  readonly opening: ClientOpeningHost;
}

/** What a Client's strategies need to open a connection. */
export interface ClientOpeningHost {
  /** The version the client asks for first. */
  readonly preferred: string;
  /** Supported revisions of each era, and all of them (oldest first). */
  readonly statefulVersions: readonly string[];
  readonly statelessVersions: readonly string[];
  readonly supportedVersions: readonly string[];
  /** What `initialize` says about the client. */
  readonly capabilities: CapabilityObject;
  readonly clientInfo: PeerIdentity;
  /** Loads a supported revision's module. */
  load(version: string): Promise<RevisionModule>;
  /** Binds `module` to the engine. */
  bind(module: RevisionModule): void;
  /** Sends a request of the opening (through the outgoing middlewares, past the era's checks). */
  request(method: string, params: Params, options: RequestOptions): Promise<unknown>;
  /** Sends a notification of the opening. */
  notify(method: string): Promise<void>;
  /** Settles the state a handshake negotiated, with the server's instructions. */
  settle(state: Negotiated, instructions: string | undefined): void;
  /** Binds stateless revision `version` (loaded) and settles its state, with the request envelope. */
  enterStateless(version: string): void;
  /** Takes the server's capabilities and identity from a discover result; false when it is unusable. */
  adoptDiscover(version: string, result: unknown): boolean;
  /** The error codes of a loaded revision. */
  errorCodes(version: string): Readonly<Record<string, number>>;
}

/** How opening ended: open (with what the era cache may remember), or the server speaks the other era. */
export type OpenOutcome =
  | { readonly kind: 'open'; readonly choice: EraChoice }
  | { readonly kind: 'fallback'; readonly reason: string; readonly cause: unknown };

/** How a Client speaks one era. */
export interface ClientEraStrategy {
  readonly era: Era;
  /** Whether the era has `subscriptions/listen` streams. */
  readonly listens: boolean;
  /** Sends request `method` and returns the result the caller gets. */
  send(method: string, params: unknown, options: RequestOptions | undefined): Promise<unknown>;
  /** Opens the connection in this era, or finds that the server speaks the other one. */
  open(options: RequestOptions): Promise<OpenOutcome>;
  /** Opens from what the era cache remembers, without asking the server; false when it cannot. */
  resume(choice: EraChoice): Promise<boolean>;
}

/**
 * The stateful era (and a Client not yet connected, whose sends fail NOT_CONNECTED in the
 * Endpoint): requests go as they are; results are only observed for tool schemas.
 */
export function statefulClientEra(host: ClientEraHost): ClientEraStrategy {
  const opening = host.opening;
  return {
    era: 'stateful',
    listens: false,
    send: (method, params, options) => host.transmit(method, params, options, (result) => host.observe(method, params, result, false)),
    // The `initialize` handshake, with version negotiation, then `notifications/initialized`.
    open: async (options) => {
      const version = chooseRevision(opening.preferred, opening.statefulVersions)!;
      opening.bind(await opening.load(version));
      const params = { protocolVersion: version, capabilities: opening.capabilities, clientInfo: opening.clientInfo };
      const result = (await opening.request(Method.Initialize, params, options)) as Stateful.InitializeResult;
      if (!opening.statefulVersions.includes(result.protocolVersion)) {
        throw new SdkError(
          'UNSUPPORTED_VERSION',
          `Server chose protocol version ${result.protocolVersion}; this client supports ${opening.statefulVersions.join(', ')}`,
        );
      }
      // A server answering with an older revision: that one's module is loaded now.
      opening.bind(await opening.load(result.protocolVersion));
      opening.settle(statefulState(result.protocolVersion, result.capabilities as CapabilityObject, result.serverInfo), result.instructions);
      await opening.notify(Method.NotificationsInitialized);
      return { kind: 'open', choice: { era: 'stateful' } };
    },
    // Every stateful connection negotiates anew.
    resume: async () => false,
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
  const opening = host.opening;
  return {
    era: 'stateless',
    listens: true,
    // The `server/discover` probe (see discoverEra); no handshake follows.
    open: async (options) => {
      const outcome = await discoverEra({
        preferred: opening.preferred,
        statelessVersions: opening.statelessVersions,
        statefulVersions: opening.statefulVersions,
        supportedVersions: opening.supportedVersions,
        enter: async (version) => {
          await opening.load(version);
          opening.enterStateless(version);
        },
        discover: () => opening.request(Method.ServerDiscover, enveloped({}, host.state!.requestMeta!), options) as Promise<Stateless.DiscoverResult>,
        errorCodes: (version) => opening.errorCodes(version),
        adopt: (version, result) => opening.adoptDiscover(version, result),
      });
      if (outcome.kind === 'stateful') return { kind: 'fallback', reason: outcome.reason, cause: outcome.cause };
      return { kind: 'open', choice: { era: 'stateless', protocolVersion: outcome.version, discover: outcome.result } };
    },
    resume: async (choice) => {
      if (choice.era !== 'stateless' || !opening.statelessVersions.includes(choice.protocolVersion)) return false;
      await opening.load(choice.protocolVersion);
      return opening.adoptDiscover(choice.protocolVersion, choice.discover);
    },
    // Not async: one promise reaction per call instead of an async frame and its await; a throw
    // before sending is a rejection all the same.
    send: (method, params, options) => {
      try {
        const requestMeta = host.state!.requestMeta!;
        const revision = host.revision!;
        const cacheable = revision.methods[method]?.cacheable === true;
        if (cacheable) {
          const cached = host.cache?.lookup(method, params);
          if (cached !== undefined) return Promise.resolve(cached);
        }
        const given = (params ?? {}) as Params;
        // The first round is an ordinary request; the rounds of a server that asks for input
        // (their shared budget from when the first went out, retries, answers) are set up
        // only once one does.
        return host.transmit(method, enveloped(given, requestMeta), options, (first, sentAt) => {
          if (!isInputRequired(first) || !acceptsInput(revision, method)) return learn(method, params, first, cacheable);
          return continueInputRounds(method, given, first, options ?? {}, {
            send: (sent, roundOptions) => host.transmit(method, enveloped(sent, host.state?.requestMeta ?? requestMeta), roundOptions),
            fulfil: (key, inputMethod, inputParams, signal) => host.fulfil(key, inputMethod, inputParams, signal),
          }, { maxRounds: host.maxInputRounds, timeoutMs: options?.timeout ?? host.defaultTimeoutMs, startedAt: sentAt })
            .then((result) => learn(method, params, result, cacheable));
        });
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
