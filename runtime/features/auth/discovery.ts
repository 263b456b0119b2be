/**
 * Metadata discovery: the MCP server's Protected Resource Metadata (RFC 9728) and its
 * authorization server's metadata (RFC 8414 and OpenID Connect Discovery 1.0), with the
 * well-known URL rules of each.
 */
import { SdkError, messageOf } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { FetchLike } from '../../transports/http/client-request.js';
import type { AuthorizationServerMetadata, ProtectedResourceMetadata } from './types.js';
import type { AuthUrlGate, AuthUrlPurpose } from './url-policy.js';
import { readBoundedText } from '../../transports/http/client-limits.js';

/** Most bytes read of a metadata document or an OAuth endpoint's answer: 1 MiB, far above any real one. */
export const MAX_OAUTH_RESPONSE_BYTES = 1024 * 1024;

const PRM_WELL_KNOWN = '/.well-known/oauth-protected-resource';
const OAUTH_WELL_KNOWN = '/.well-known/oauth-authorization-server';
const OIDC_WELL_KNOWN = '/.well-known/openid-configuration';
/** Redirects a metadata request follows, each to a URL the gate allows. */
const MAX_METADATA_REDIRECTS = 3;

/** Where discovery requests go, and what they may be cancelled by. */
export interface DiscoveryOptions {
  readonly fetch: FetchLike;
  readonly signal?: AbortSignal | undefined;
  /** Checks the URLs discovery learns from servers, and every redirect it would follow. */
  readonly gate?: AuthUrlGate | undefined;
}

/** A metadata document and the URL it came from. */
export interface Discovered<T> {
  readonly url: string;
  readonly metadata: T;
}

/**
 * The URLs to try for a server's Protected Resource Metadata, in order: the `resource_metadata`
 * of its challenge, then the path-aware well-known URL (the well-known prefix inserted before
 * the server's path), then the one at the origin's root.
 */
export function protectedResourceMetadataUrls(serverUrl: URL, fromChallenge?: string): string[] {
  const urls: string[] = [];
  if (fromChallenge !== undefined) {
    try {
      urls.push(new URL(fromChallenge, serverUrl).href);
    } catch {
      // An unusable URL in the challenge leaves the well-known locations.
    }
  }
  const path = serverUrl.pathname.replace(/\/$/, '');
  if (path !== '') urls.push(`${serverUrl.origin}${PRM_WELL_KNOWN}${path}`);
  urls.push(`${serverUrl.origin}${PRM_WELL_KNOWN}`);
  return [...new Set(urls)];
}

/**
 * The URLs to try for an authorization server's metadata. For an issuer with a path
 * (`https://as.example/tenant1`): OAuth with the path inserted after the well-known prefix,
 * OpenID Connect the same way, then OpenID Connect with the well-known suffix appended to the
 * path; for an issuer without one, the OAuth and the OpenID Connect well-known URLs.
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  if (path === '') return [`${url.origin}${OAUTH_WELL_KNOWN}`, `${url.origin}${OIDC_WELL_KNOWN}`];
  return [`${url.origin}${OAUTH_WELL_KNOWN}${path}`, `${url.origin}${OIDC_WELL_KNOWN}${path}`, `${url.origin}${path}${OIDC_WELL_KNOWN}`];
}

/**
 * Fetches a JSON metadata document. Resolves undefined when the server has none there (an
 * error status), rejects when the request fails or the body is not a JSON object. Redirects
 * are followed by hand, a few at most, and only to URLs the gate allows: a redirect is as good
 * a way to reach 169.254.169.254 as a metadata member is.
 */
async function fetchMetadata(url: string, options: DiscoveryOptions, purpose: AuthUrlPurpose): Promise<Record<string, unknown> | undefined> {
  let target = new URL(url);
  let response: Response;
  for (let hops = 0; ; hops++) {
    try {
      response = await options.fetch(target, { method: 'GET', headers: { accept: 'application/json' }, redirect: 'manual', ...(options.signal !== undefined ? { signal: options.signal } : {}) });
    } catch (error) {
      throw new SdkError('AUTHORIZATION_FAILED', `Fetching metadata from ${target.href} failed: ${messageOf(error)}`, { cause: error });
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) break;
    await response.body?.cancel().catch(() => undefined);
    if (hops >= MAX_METADATA_REDIRECTS) throw new SdkError('AUTHORIZATION_FAILED', `Fetching metadata from ${url} was redirected more than ${MAX_METADATA_REDIRECTS} times`);
    target = options.gate === undefined ? new URL(location, target) : await options.gate.check(location, purpose, target);
  }
  if (response.type === 'opaqueredirect') throw new SdkError('AUTHORIZATION_FAILED', `The metadata at ${url} redirects, and this runtime hides where to`);
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const body = await readBoundedText(response, MAX_OAUTH_RESPONSE_BYTES);
  if (body.overflow !== undefined) throw new SdkError('AUTHORIZATION_FAILED', `The metadata at ${url} is larger than ${MAX_OAUTH_RESPONSE_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch (error) {
    throw new SdkError('AUTHORIZATION_FAILED', `The metadata at ${url} is not JSON`, { cause: error });
  }
  if (!isJsonObject(value)) throw new SdkError('AUTHORIZATION_FAILED', `The metadata at ${url} is not a JSON object`);
  return value;
}

/**
 * Finds a server's Protected Resource Metadata at the URLs of
 * {@link protectedResourceMetadataUrls}. Resolves undefined when none of them has it: the
 * server predates RFC 9728 (MCP 2025-03-26).
 */
export async function discoverProtectedResource(serverUrl: URL, fromChallenge: string | undefined, options: DiscoveryOptions): Promise<Discovered<ProtectedResourceMetadata> | undefined> {
  if (fromChallenge !== undefined && options.gate !== undefined) {
    // The server's own origin is where the user already sends requests; anywhere else is checked.
    let origin: string | undefined;
    try {
      origin = new URL(fromChallenge, serverUrl).origin;
    } catch {
      origin = undefined;
    }
    if (origin !== serverUrl.origin) await options.gate.check(fromChallenge, 'resource-metadata', serverUrl);
  }
  for (const url of protectedResourceMetadataUrls(serverUrl, fromChallenge)) {
    const metadata = await fetchMetadata(url, options, 'resource-metadata');
    if (metadata === undefined) continue;
    if (typeof metadata.resource !== 'string') {
      throw new SdkError('AUTHORIZATION_FAILED', `The Protected Resource Metadata at ${url} has no resource`);
    }
    return { url, metadata: metadata as ProtectedResourceMetadata };
  }
  return undefined;
}

/**
 * Whether a Protected Resource Metadata `resource` may stand for the MCP server at `serverUrl`:
 * the same origin, and a path that is the server's path or one of its ancestors. Anything else
 * means the metadata describes another resource, and a token requested for it must not be sent.
 */
export function resourceCovers(resource: string, serverUrl: URL): boolean {
  let parsed: URL;
  try {
    parsed = new URL(resource);
  } catch {
    return false;
  }
  if (parsed.origin !== serverUrl.origin || parsed.hash !== '' || parsed.search !== '') return false;
  const base = parsed.pathname.replace(/\/$/, '');
  const path = serverUrl.pathname.replace(/\/$/, '');
  return base === '' || path === base || path.startsWith(`${base}/`);
}

/** The canonical URI of an MCP server (RFC 8707): its URL without query, fragment or a bare trailing slash. */
export function canonicalResource(serverUrl: URL): string {
  const path = serverUrl.pathname === '/' ? '' : serverUrl.pathname;
  return `${serverUrl.origin}${path}`;
}

/**
 * Finds an authorization server's metadata at the URLs of {@link authorizationServerMetadataUrls}.
 * Resolves undefined when none has it. Rejects metadata whose `issuer` is not exactly the
 * issuer the URL was built from (RFC 8414 §3.3), because its endpoints could belong to anyone.
 */
export async function discoverAuthorizationServer(issuer: string, options: DiscoveryOptions): Promise<Discovered<AuthorizationServerMetadata> | undefined> {
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const metadata = await fetchMetadata(url, options, 'authorization-server');
    if (metadata === undefined) continue;
    if (metadata.issuer !== issuer) {
      throw new SdkError('AUTHORIZATION_FAILED', `The authorization server metadata at ${url} names the issuer ${JSON.stringify(metadata.issuer)} instead of ${JSON.stringify(issuer)}`);
    }
    return { url, metadata: metadata as AuthorizationServerMetadata };
  }
  return undefined;
}
