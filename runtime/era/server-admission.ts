/**
 * How a Server admits a request while its connection is not in the stateful era (nothing
 * negotiated yet, or the stateless era): the revision to load before the request is looked up
 * (decided from facts alone), and the admission that binds it and settles the connection's
 * negotiated state, or refuses the request. A stateful session admits every request as it is.
 */
import type { CapabilityObject } from './capabilities.js';
import type { RevisionModule } from '../core/contract.js';
import { ProtocolError } from '../core/errors.js';
import { isJsonObject, type JSONRPCRequest } from '../core/jsonrpc.js';
import type { RevisionSet } from '../core/revision-set.js';
import { INITIALIZE_REQUEST } from '../core/special-methods.js';
import { CLIENT_CAPABILITIES_META, CLIENT_INFO_META, declaredVersion, PROTOCOL_VERSION_META } from './meta.js';
import { chooseRevision, statelessState, withPeer, type Negotiated, type PeerIdentity } from './negotiated.js';

/** The revisions a Server speaks, per era and oldest first (facts only: nothing is loaded to know them). */
export interface ServerVersions {
  readonly stateful: readonly string[];
  readonly stateless: readonly string[];
  readonly revisions: RevisionSet;
  /** The revision whose error codes a refusal uses when no stateless one is supported. */
  readonly defaultRevision: string;
}

/** What admission reads and settles on the Server. */
export interface AdmissionHost {
  readonly versions: ServerVersions;
  /** The negotiated state: undefined, or the stateless era's. */
  readonly state: Negotiated | undefined;
  /** Replaces the negotiated state when a request settles (or reopens) the era. */
  settle(state: Negotiated | undefined): void;
  /** The revision bound to the engine. */
  readonly bound: RevisionModule | undefined;
  /** Binds `module` to the engine. */
  bind(module: RevisionModule): void;
}

/**
 * The version an `initialize` will settle on, the supported stateless version a request names
 * in `_meta`, or, while nothing is negotiated (`unopened`), the newest stateless one for a
 * method only that era has (a discovery probe); undefined when the request needs no other
 * revision than the bound one.
 */
export function revisionForRequest(request: JSONRPCRequest, unopened: boolean, versions: ServerVersions): string | undefined {
  if (request.method === INITIALIZE_REQUEST) {
    return versions.stateful.length === 0 ? undefined : initializeVersion(request.params, versions.stateful);
  }
  if (versions.stateless.length === 0) return undefined;
  const version = declaredVersion(request.params);
  if (version === undefined) {
    const onlyStateless = versions.revisions.defines(request.method, 'stateless') && !versions.revisions.defines(request.method, 'stateful');
    return unopened && onlyStateless ? versions.stateless[versions.stateless.length - 1] : undefined;
  }
  return versions.stateless.includes(version) ? version : undefined;
}

/** The stateful version an `initialize` with `params` settles on (see {@link chooseRevision}). */
export function initializeVersion(params: unknown, stateful: readonly string[]): string {
  return chooseRevision(isJsonObject(params) ? params.protocolVersion : undefined, stateful)!;
}

/**
 * Picks the era of a request before it is looked up, on a connection not in the stateful era
 * (once a connection initialized, `_meta` is just metadata): `initialize` selects the stateful
 * era; a request naming its protocol version in `_meta` selects the stateless one (binds that
 * revision and takes the client's capabilities and identity from `_meta`). Returns the error to
 * answer instead, if any.
 */
export function admitRequest(request: JSONRPCRequest, host: AdmissionHost): ProtocolError | undefined {
  const { versions } = host;
  const state = host.state;
  const needed = revisionForRequest(request, state === undefined, versions);
  const module = needed === undefined ? undefined : versions.revisions.module(needed);
  if (needed !== undefined && module === undefined) {
    // prepareIncoming loaded it unless the load failed (reported through onerror).
    return new ProtocolError(versions.revisions.facts(needed).errorCodes.INTERNAL_ERROR ?? -32603, `The module of protocol revision ${needed} could not be loaded`);
  }
  if (request.method === INITIALIZE_REQUEST) {
    if (versions.stateful.length === 0) {
      const requested = (request.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      return unsupportedVersion(versions, typeof requested === 'string' ? requested : undefined);
    }
    // A client that probed the stateless era first (and fell back) gets the handshake.
    host.settle(undefined);
    if (host.bound !== module) host.bind(module!);
    return undefined;
  }
  if (versions.stateless.length === 0) return undefined;
  const meta = isJsonObject(request.params) && isJsonObject(request.params._meta) ? request.params._meta : undefined;
  const version = meta?.[PROTOCOL_VERSION_META];
  if (typeof version !== 'string') {
    // A method of the stateless era alone (a discovery probe) is checked against that era's
    // schema, which refuses it for its missing `_meta`; the era stays open. Anything else
    // meets the stateful rules ("before initialize").
    if (state === undefined && module !== undefined && module.era === 'stateless') host.bind(module);
    return undefined;
  }
  if (module === undefined || module.era !== 'stateless') return unsupportedVersion(versions, version);
  if (host.bound !== module) host.bind(module);
  const capabilities = meta![CLIENT_CAPABILITIES_META];
  const clientInfo = meta![CLIENT_INFO_META];
  // Each request declares its own; what it leaves out stays as the last one declared.
  const peerCapabilities = isJsonObject(capabilities) ? capabilities as CapabilityObject : state?.peerCapabilities;
  const peerInfo = isJsonObject(clientInfo) ? clientInfo as unknown as PeerIdentity : state?.peerInfo;
  const settled = state?.revision === module.revision ? withPeer(state, peerCapabilities, peerInfo) : statelessState(module.revision, peerCapabilities, peerInfo);
  if (settled !== state) host.settle(settled);
  return undefined;
}

/**
 * UnsupportedProtocolVersionError, listing the versions a request may name in `_meta`
 * (newest first; the same list `server/discover` gives).
 */
export function unsupportedVersion(versions: ServerVersions, requested: string | undefined): ProtocolError {
  const codes = versions.revisions.facts(versions.stateless[versions.stateless.length - 1] ?? versions.defaultRevision).errorCodes;
  const supported = [...versions.stateless].reverse();
  const text = requested === undefined
    ? `Unsupported protocol version: this server supports ${supported.join(', ')}`
    : `Unsupported protocol version ${JSON.stringify(requested)}: this server supports ${supported.join(', ')}`;
  return new ProtocolError(codes.UNSUPPORTED_PROTOCOL_VERSION ?? codes.INVALID_REQUEST!, text, { supported, ...(requested !== undefined ? { requested } : {}) });
}
