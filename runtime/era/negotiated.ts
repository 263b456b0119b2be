/**
 * What two peers settled on: the era, the revision and what the peer declared, held as one
 * value that Client and Server replace as a whole, and the one rule by which either side picks
 * a revision from a list.
 */
import type { CapabilityObject } from './capabilities.js';
import { isJsonObject } from '../core/jsonrpc.js';
import { ownCopy } from './own-copy.js';
import { CLIENT_CAPABILITIES_META, CLIENT_INFO_META, LOG_LEVEL_META, PROTOCOL_VERSION_META } from './meta.js';

/** The two eras: `initialize` once per connection, or the version and capabilities on every request. */
export type Era = 'stateful' | 'stateless';

/** The identity a peer gives (`Implementation` in every revision: a name and a version at least). */
export interface PeerIdentity {
  readonly name: string;
  readonly version: string;
}

/**
 * The negotiated state of one connection. Stateful: what `initialize` settled. Stateless: the
 * revision of the last request (the client's choice from `server/discover`), and what the peer
 * declared last.
 */
export interface Negotiated {
  readonly era: Era;
  readonly revision: string;
  /** The capabilities the peer declared (`initialize`, `server/discover`, or the latest request's `_meta`). */
  readonly peerCapabilities: CapabilityObject | undefined;
  /** The peer's name and version, once it gave them. */
  readonly peerInfo: PeerIdentity | undefined;
  /**
   * A stateless client's envelope: the `_meta` members each of its requests carries (version,
   * capabilities, identity, log level), built once per state. Undefined otherwise.
   */
  readonly requestMeta: Readonly<Record<string, unknown>> | undefined;
}

/** The state after an `initialize` exchange (or a restored one). */
export function statefulState(revision: string, peerCapabilities: CapabilityObject | undefined, peerInfo: PeerIdentity | undefined): Negotiated {
  return { era: 'stateful', revision, peerCapabilities, peerInfo, requestMeta: undefined };
}

/** A server's state after a stateless request; the client's envelope is none of its business. */
export function statelessState(revision: string, peerCapabilities: CapabilityObject | undefined, peerInfo: PeerIdentity | undefined): Negotiated {
  return { era: 'stateless', revision, peerCapabilities, peerInfo, requestMeta: undefined };
}

/** What a stateless client says about itself on every request. */
export interface ClientEnvelope {
  readonly capabilities: CapabilityObject;
  /** Omitted from requests when undefined (a client that keeps its identity to itself). */
  readonly clientInfo: PeerIdentity | undefined;
  readonly logLevel: string | undefined;
}

/** A client's state on entering stateless revision `revision`, its request `_meta` built once. */
export function statelessClientState(revision: string, envelope: ClientEnvelope): Negotiated {
  // Shared by every request that brings no `_meta` of its own; frozen because nothing downstream may change it.
  const requestMeta = Object.freeze({
    [PROTOCOL_VERSION_META]: revision,
    [CLIENT_CAPABILITIES_META]: envelope.capabilities,
    ...(envelope.clientInfo !== undefined ? { [CLIENT_INFO_META]: envelope.clientInfo } : {}),
    ...(envelope.logLevel !== undefined ? { [LOG_LEVEL_META]: envelope.logLevel } : {}),
  });
  return { era: 'stateless', revision, peerCapabilities: undefined, peerInfo: undefined, requestMeta };
}

/** `state` with what the peer declared replaced; `state` itself when nothing changed. */
export function withPeer(state: Negotiated, peerCapabilities: CapabilityObject | undefined, peerInfo: PeerIdentity | undefined): Negotiated {
  if (state.peerCapabilities === peerCapabilities && state.peerInfo === peerInfo) return state;
  return { era: state.era, revision: state.revision, peerCapabilities, peerInfo, requestMeta: state.requestMeta };
}

/**
 * `params` in a stateless client's envelope: its `_meta` members under the caller's own
 * `_meta` members (the caller's win). The shared `_meta` object when the caller brings none.
 */
export function enveloped(params: Readonly<Record<string, unknown>>, requestMeta: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const own = params._meta;
  const sent = ownCopy(params);
  sent._meta = isJsonObject(own) ? { ...requestMeta, ...own } : requestMeta;
  return sent;
}

/**
 * The revision both sides use when one side asks for `requested` and the other supports
 * `supported`: the one asked for if supported, else the newest supported (the answer the
 * other side then accepts or refuses). Undefined only when `supported` is empty.
 */
export function chooseRevision(requested: unknown, supported: readonly string[]): string | undefined {
  return typeof requested === 'string' && supported.includes(requested) ? requested : newest(supported);
}

/** The newest revision in both `ours` and `theirs` (what a server's list of versions leaves to pick from). */
export function newestShared(ours: readonly string[], theirs: readonly unknown[]): string | undefined {
  return newest(ours.filter((candidate) => theirs.includes(candidate)));
}

/** The newest of `versions` (revision dates sort as strings). */
export function newest(versions: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const version of versions) if (best === undefined || version > best) best = version;
  return best;
}
