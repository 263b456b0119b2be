/**
 * Client ID Metadata Documents: a client whose `client_id` is an `https:` URL publishes its
 * metadata there, and the authorization server reads it instead of a registration. The URL
 * passes mcpgen's auth URL policy (no private, link-local or loopback targets unless the issuer
 * is in the same range), redirects are refused, the body and the wait are bounded, and
 * documents are cached for a while in a bounded table.
 */
import { messageOf } from '../../core/errors.js';
import { isJsonObject } from '../../core/jsonrpc.js';
import type { FetchLike } from '../../transports/http/client-request.js';
import { OAuthError } from '../auth/types.js';
import { AuthUrlGate, type AuthUrlPolicy } from '../auth/url-policy.js';
import { boundedText } from './bounded-body.js';
import { checkRegistration } from './registration-endpoint.js';
import type { RegisteredClient } from './types.js';

/** Options of Client ID Metadata Document support (`clientMetadataDocuments`). */
export interface ClientMetadataDocumentOptions {
  /** How documents are fetched (default `globalThis.fetch`). */
  readonly fetch?: FetchLike | undefined;
  /** Which document URLs may be fetched (default `defaultAuthUrlPolicy`, with the issuer as the server). */
  readonly urlPolicy?: AuthUrlPolicy | undefined;
  /** Largest document (default 5 KiB). */
  readonly maxBytes?: number | undefined;
  /** Time to wait for a document (default 5 s). */
  readonly timeoutMs?: number | undefined;
  /** How long a fetched document is used before it is fetched again (default 5 minutes). */
  readonly cacheTtlMs?: number | undefined;
  /** Most cached documents (default 1,000); the least recently used is dropped first. */
  readonly maxCached?: number | undefined;
}

const invalidClient = (description: string): OAuthError => new OAuthError('invalid_client', description, 401);

/** Fetches, checks and caches Client ID Metadata Documents. */
export class ClientMetadataDocuments {
  private readonly cache = new Map<string, { client: RegisteredClient; until: number }>();
  private readonly gate: AuthUrlGate;
  private readonly fetch: FetchLike;
  private readonly maxBytes: number;
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly maxCached: number;

  constructor(options: ClientMetadataDocumentOptions, issuer: URL, private readonly scopesSupported: readonly string[] | undefined, private readonly now: () => number) {
    this.gate = new AuthUrlGate(issuer, options.urlPolicy);
    this.fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.maxBytes = options.maxBytes ?? 5 * 1024;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.ttlMs = options.cacheTtlMs ?? 5 * 60_000;
    this.maxCached = Math.max(1, options.maxCached ?? 1_000);
  }

  /** Whether `clientId` is a document URL (an `https:` URL with a path). */
  handles(clientId: string): boolean {
    return /^https:\/\/[^/?#]+\/[^#]+$/.test(clientId);
  }

  /** The client the document at `clientId` describes; throws `invalid_client` when it cannot be used. */
  async client(clientId: string): Promise<RegisteredClient> {
    const cached = this.cache.get(clientId);
    if (cached !== undefined && cached.until > this.now()) {
      this.cache.delete(clientId);
      this.cache.set(clientId, cached);
      return cached.client;
    }
    const client = await this.load(clientId);
    this.cache.delete(clientId);
    this.cache.set(clientId, { client, until: this.now() + this.ttlMs });
    while (this.cache.size > this.maxCached) this.cache.delete(this.cache.keys().next().value!);
    return client;
  }

  private async load(clientId: string): Promise<RegisteredClient> {
    let url: URL;
    try {
      url = new URL(clientId);
    } catch {
      throw invalidClient('The client id is not a usable metadata document URL');
    }
    if (url.username !== '' || url.password !== '' || url.href !== clientId || /\/\.\.?(\/|$)/.test(clientId)) throw invalidClient('The client id is not a usable metadata document URL');
    try {
      await this.gate.check(url, 'client-metadata-document');
    } catch (error) {
      throw invalidClient(messageOf(error));
    }
    let response: Response;
    try {
      response = await this.fetch(url, { method: 'GET', headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      throw invalidClient(`The client metadata document could not be fetched: ${messageOf(error)}`);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw invalidClient(`The client metadata document answered HTTP ${response.status}`);
    }
    let text: string | undefined;
    try {
      text = await boundedText(response, this.maxBytes);
    } catch (error) {
      throw invalidClient(`The client metadata document could not be read: ${messageOf(error)}`);
    }
    if (text === undefined) throw invalidClient(`The client metadata document exceeds ${this.maxBytes} bytes`);
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      throw invalidClient('The client metadata document is not JSON');
    }
    if (!isJsonObject(document) || document.client_id !== clientId) throw invalidClient('The client metadata document does not name itself as client_id');
    if ('client_secret' in document) throw invalidClient('A client metadata document must not carry a secret');
    const method = document.token_endpoint_auth_method ?? 'none';
    if (method !== 'none') throw invalidClient('Clients with metadata documents authenticate with none here');
    try {
      return { ...checkRegistration({ ...document, token_endpoint_auth_method: 'none' }, this.scopesSupported), client_id: clientId };
    } catch (error) {
      throw error instanceof OAuthError ? invalidClient(error.errorDescription ?? error.error) : error;
    }
  }
}
