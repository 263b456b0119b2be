/**
 * The `_meta` keys of the stateless era (2026-07-28 on). With no handshake, every request
 * carries the protocol version and the client's capabilities and identity in `params._meta`,
 * and results carry the server's identity the same way. These are the only places the
 * runtime reads or writes them.
 */
import { isJsonObject } from '../core/jsonrpc.js';
import { ownCopy } from './own-copy.js';

/** The protocol version a request speaks. */
export const PROTOCOL_VERSION_META = 'io.modelcontextprotocol/protocolVersion';
/** The client's capabilities, declared on every request. */
export const CLIENT_CAPABILITIES_META = 'io.modelcontextprotocol/clientCapabilities';
/** The client's name and version. */
export const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';
/** The lowest log level the client wants `notifications/message` for, on this request only. */
export const LOG_LEVEL_META = 'io.modelcontextprotocol/logLevel';
/** The server's name and version, on results. */
export const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';
/** The `subscriptions/listen` request a notification belongs to. */
export const SUBSCRIPTION_ID_META = 'io.modelcontextprotocol/subscriptionId';

/** `params._meta` of a request, when it is an object. */
export function requestMeta(params: unknown): Record<string, unknown> | undefined {
  return isJsonObject(params) && isJsonObject(params._meta) ? params._meta : undefined;
}

/** The protocol version a request declares in `_meta`, if it declares one. */
export function declaredVersion(params: unknown): string | undefined {
  const value = requestMeta(params)?.[PROTOCOL_VERSION_META];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The server identity in a result's `_meta`, if valid: `known` itself when the result names the
 * same name and version (a server sends the same identity on every result, so it is checked
 * once, not per result), else the candidate if `validate` (the revision's `Implementation`
 * check) accepts it.
 */
export function identityIn<I extends { readonly name: string; readonly version: string }>(
  result: { readonly [key: string]: unknown },
  known: I | undefined,
  validate: ((value: unknown) => boolean) | undefined,
): I | undefined {
  const candidate = isJsonObject(result._meta) ? result._meta[SERVER_INFO_META] : undefined;
  if (candidate === undefined) return undefined;
  if (known !== undefined && isJsonObject(candidate) && candidate.name === known.name && candidate.version === known.version) return known;
  return validate === undefined || validate(candidate) ? (candidate as I) : undefined;
}

/**
 * A result with `resultType` (default `complete`), the server's identity in `_meta` and, for
 * a cacheable result, the cache hints (default: re-fetch, not shareable).
 */
export function finishResult(result: unknown, serverInfo: unknown, cacheable = false): Record<string, unknown> {
  const base = isJsonObject(result) ? result : {};
  const meta = base._meta;
  const finished = ownCopy(base);
  if (typeof finished.resultType !== 'string') finished.resultType = 'complete';
  if (isJsonObject(meta)) {
    const merged = ownCopy(meta);
    merged[SERVER_INFO_META] = serverInfo;
    finished._meta = merged;
  } else {
    finished._meta = identityMeta(serverInfo);
  }
  if (cacheable && finished.resultType === 'complete') {
    finished.ttlMs ??= 0;
    finished.cacheScope ??= 'private';
  }
  return finished;
}

/**
 * The last identity {@link identityMeta} answered for. One entry: a long-lived server hits it on
 * every result, and a server built per request would only add WeakMap entries (dearer to add
 * and to collect than the object they save).
 */
let lastIdentity: { readonly serverInfo: object; readonly meta: Readonly<Record<string, unknown>> } | undefined;

/** `{ serverInfo }` as a `_meta`, one frozen object per identity (results only read it). */
function identityMeta(serverInfo: unknown): Readonly<Record<string, unknown>> {
  if (typeof serverInfo !== 'object' || serverInfo === null) return { [SERVER_INFO_META]: serverInfo };
  if (lastIdentity?.serverInfo !== serverInfo) lastIdentity = { serverInfo, meta: Object.freeze({ [SERVER_INFO_META]: serverInfo }) };
  return lastIdentity.meta;
}
