/**
 * The Client's probe of the stateless era: `server/discover`, and what its answer or failure
 * says about the server (a stateless server, an older one to fall back from, or a refusal).
 */
import type { Stateless } from '../../generated/latest.js';
import { ProtocolError, SdkError } from '../core/errors.js';
import { isJsonObject } from '../core/jsonrpc.js';
import { findTransportError } from '../core/errors.js';
import { chooseRevision, newestShared } from './negotiated.js';

/** What the probe needs of the Client. */
export interface DiscoveryProbe {
  readonly preferred: string;
  readonly statelessVersions: readonly string[];
  readonly statefulVersions: readonly string[];
  readonly supportedVersions: readonly string[];
  /** Loads `version`'s module and binds it (the request carries it in `_meta`). */
  enter(version: string): Promise<void>;
  /** Sends `server/discover` under the entered version. */
  discover(version: string): Promise<Stateless.DiscoverResult>;
  /** The error codes of an entered version. */
  errorCodes(version: string): Readonly<Record<string, number>>;
  /** Takes the server's capabilities and identity from a discover result. */
  adopt(version: string, result: Stateless.DiscoverResult): void;
}

/** How the probe ended. */
export type DiscoverOutcome =
  | { readonly kind: 'stateless'; readonly version: string; readonly result: Stateless.DiscoverResult }
  | { readonly kind: 'stateful'; readonly reason: string; readonly cause: unknown };

/**
 * Probes with `server/discover`. A refusal naming supported versions is retried once with
 * the newest one this client shares; errors of the stateless era (a refused capability, a
 * header mismatch) are thrown, as they prove a stateless server that refused this client;
 * anything else means an older server.
 */
export async function discoverEra(probe: DiscoveryProbe): Promise<DiscoverOutcome> {
  let version = chooseRevision(probe.preferred, probe.statelessVersions)!;
  for (let attempt = 0; ; attempt++) {
    await probe.enter(version);
    let result: Stateless.DiscoverResult;
    try {
      result = await probe.discover(version);
    } catch (error) {
      const rpc = rpcErrorOf(error);
      const codes = probe.errorCodes(version);
      if (rpc !== undefined && rpc.code === codes.UNSUPPORTED_PROTOCOL_VERSION) {
        const offered = supportedOf(rpc.data);
        const mutual = newestShared(probe.statelessVersions, offered);
        if (mutual !== undefined && attempt === 0) {
          version = mutual;
          continue;
        }
        if (mutual === undefined && probe.statefulVersions.some((candidate) => offered.includes(candidate))) {
          return { kind: 'stateful', reason: `it supports only ${offered.join(', ')}`, cause: error };
        }
        throw new SdkError('UNSUPPORTED_VERSION', `The server refused protocol version ${version} and supports ${offered.join(', ') || 'no version named'}; this client supports ${probe.supportedVersions.join(', ')}`, { cause: error });
      }
      if (rpc !== undefined && (rpc.code === codes.MISSING_REQUIRED_CLIENT_CAPABILITY || rpc.code === codes.HEADER_MISMATCH)) throw error;
      if (!looksLegacy(error, rpc)) throw error;
      const reason = rpc === undefined ? (error instanceof Error ? error.message : String(error)) : `server/discover failed with ${rpc.code} ${rpc.message}`;
      return { kind: 'stateful', reason, cause: error };
    }
    const mutual = newestShared(probe.statelessVersions, result.supportedVersions);
    if (mutual === undefined) {
      if (probe.statefulVersions.some((candidate) => result.supportedVersions.includes(candidate))) {
        return { kind: 'stateful', reason: `it supports only ${result.supportedVersions.join(', ')}`, cause: undefined };
      }
      throw new SdkError('UNSUPPORTED_VERSION', `The server supports ${result.supportedVersions.join(', ')}; this client supports ${probe.supportedVersions.join(', ')}`);
    }
    probe.adopt(mutual, result);
    return { kind: 'stateless', version: mutual, result };
  }
}

/** The JSON-RPC error a failure carries: the peer's answer, or the body of an HTTP error answer. */
function rpcErrorOf(error: unknown): { readonly code: number; readonly message: string; readonly data?: unknown } | undefined {
  if (error instanceof ProtocolError) return { code: error.code, message: error.message, data: error.data };
  return findTransportError(error)?.rpcError;
}

function supportedOf(data: unknown): string[] {
  const supported = isJsonObject(data) ? data.supported : undefined;
  return Array.isArray(supported) ? supported.filter((value): value is string => typeof value === 'string') : [];
}

/**
 * Whether a failed probe means an older server: any JSON-RPC error answer, an HTTP 4xx other
 * than 401/403 (credentials are not an era question), or no answer in time. Network failures,
 * server errors, a closed connection and the caller's cancellation are not.
 */
function looksLegacy(error: unknown, rpc: { readonly code: number } | undefined): boolean {
  if (error instanceof ProtocolError) return true;
  const http = findTransportError(error);
  if (http?.status !== undefined) return http.status >= 400 && http.status < 500 && http.status !== 401 && http.status !== 403;
  if (rpc !== undefined) return true;
  return error instanceof SdkError && error.code === 'REQUEST_TIMEOUT';
}
