/**
 * Dynamic Client Registration (RFC 7591): metadata is checked member by member (redirect URIs
 * by the rules of redirect-uris.ts), members mcpgen does not know are dropped, and registrations
 * are rate limited by a token bucket so that a script cannot fill the client table.
 */
import { asError, SdkError } from '../../core/errors.js';
import type { BodyReply, HttpRequestView } from '../../transports/http/http-types.js';
import { OAuthError } from '../auth/types.js';
import { MAX_REDIRECT_URIS, redirectUriProblem } from './redirect-uris.js';
import { jsonAnswer, oauthErrorAnswer, readJsonObject } from './replies.js';
import type { AuthorizationServerProvider, ClientAuthMethod, ClientRegistration } from './types.js';

/** How registrations are rate limited: a bucket of `burst` that refills `perMinute` a minute. */
export interface RegistrationLimits {
  /** Registrations a minute, sustained (default 20). */
  readonly perMinute?: number | undefined;
  /** Registrations at once (default 20). */
  readonly burst?: number | undefined;
  /**
   * Which bucket a request counts against (default: one for all). A server behind a trusted
   * proxy may key by the client address it forwards; at most 10,000 buckets are kept, the
   * least recently used dropped first.
   */
  key?(request: HttpRequestView): string;
}

/** Most rate-limit buckets kept at once. */
const MAX_BUCKETS = 10_000;
const AUTH_METHODS: readonly ClientAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const STRING_MEMBERS = ['client_name', 'client_uri', 'logo_uri', 'tos_uri', 'policy_uri', 'software_id', 'software_version', 'jwks_uri'] as const;
const MAX_STRING_LENGTH = 2_000;

/** A token bucket per key. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly burst: number;
  private readonly perMs: number;

  constructor(limits: RegistrationLimits, private readonly now: () => number) {
    const perMinute = limits.perMinute ?? 20;
    this.burst = limits.burst ?? 20;
    if (!(perMinute > 0 && this.burst >= 1)) throw new SdkError('INVALID_ARGUMENT', 'Registration limits need perMinute > 0 and burst >= 1');
    this.perMs = perMinute / 60_000;
  }

  /** Takes one token: undefined when granted, else the seconds until one is available. */
  take(key: string): number | undefined {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    this.buckets.delete(key);
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    this.buckets.set(key, bucket);
    while (this.buckets.size > MAX_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.ceil((1 - bucket.tokens) / this.perMs / 1000);
  }
}

const metadataError = (description: string): OAuthError => new OAuthError('invalid_client_metadata', description);

function stringList(value: unknown, name: string, fallback: readonly string[]): readonly string[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string')) throw metadataError(`${name} must be an array of strings`);
  return value as string[];
}

/** Checks registration metadata; throws `invalid_redirect_uri` or `invalid_client_metadata`. */
export function checkRegistration(metadata: Record<string, unknown>, scopesSupported: readonly string[] | undefined): ClientRegistration {
  const redirectUris = metadata.redirect_uris;
  if (!Array.isArray(redirectUris) || redirectUris.length === 0) throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be a non-empty array');
  if (redirectUris.length > MAX_REDIRECT_URIS) throw new OAuthError('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect_uris`);
  for (const uri of redirectUris) {
    if (typeof uri !== 'string') throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be strings');
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) throw new OAuthError('invalid_redirect_uri', `The redirect URI ${uri} ${problem}`);
  }
  const method = metadata.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!AUTH_METHODS.includes(method as ClientAuthMethod)) throw metadataError(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  const grantTypes = stringList(metadata.grant_types, 'grant_types', ['authorization_code']);
  const unknownGrant = grantTypes.find((grant) => !GRANT_TYPES.includes(grant));
  if (unknownGrant !== undefined) throw metadataError(`The grant type ${unknownGrant} is not supported`);
  if (!grantTypes.includes('authorization_code')) throw metadataError('grant_types must include authorization_code');
  const responseTypes = stringList(metadata.response_types, 'response_types', ['code']);
  if (responseTypes.length !== 1 || responseTypes[0] !== 'code') throw metadataError('response_types must be ["code"]');
  const registration: Record<string, unknown> = {
    redirect_uris: [...(redirectUris as string[])],
    token_endpoint_auth_method: method,
    grant_types: [...new Set(grantTypes)],
    response_types: ['code'],
  };
  for (const name of STRING_MEMBERS) {
    const value = metadata[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > MAX_STRING_LENGTH) throw metadataError(`${name} must be a string of at most ${MAX_STRING_LENGTH} characters`);
    registration[name] = value;
  }
  if (metadata.scope !== undefined) {
    if (typeof metadata.scope !== 'string') throw metadataError('scope must be a string');
    const unknown = metadata.scope.split(' ').filter((scope) => scope !== '' && scopesSupported !== undefined && !scopesSupported.includes(scope));
    if (unknown.length > 0) throw metadataError(`Unknown scope ${unknown.join(' ')}`);
    registration.scope = metadata.scope;
  }
  if (metadata.application_type !== undefined) {
    if (metadata.application_type !== 'native' && metadata.application_type !== 'web') throw metadataError('application_type must be native or web');
    registration.application_type = metadata.application_type;
  }
  const contacts = stringList(metadata.contacts, 'contacts', []);
  if (contacts.length > 0) registration.contacts = contacts.slice(0, 10);
  return registration as unknown as ClientRegistration;
}

/** What the registration endpoint needs from its server. */
export interface RegistrationEndpointConfig {
  readonly provider: AuthorizationServerProvider;
  readonly limiter: RateLimiter;
  readonly limits: RegistrationLimits;
  readonly scopesSupported: readonly string[] | undefined;
  readonly maxBodyBytes: number;
  report(error: Error): void;
}

/** Answers a request to the registration endpoint: 201 with the client's information. */
export async function registrationEndpoint(request: HttpRequestView, config: RegistrationEndpointConfig): Promise<BodyReply> {
  if (request.method !== 'POST') return oauthErrorAnswer(new OAuthError('invalid_request', 'Use POST', 405), { allow: 'POST' });
  const wait = config.limiter.take(config.limits.key?.(request) ?? '');
  if (wait !== undefined) return oauthErrorAnswer(new OAuthError('slow_down', 'Too many registrations; try again later', 429), { 'retry-after': String(wait) });
  try {
    const metadata = await readJsonObject(request, config.maxBodyBytes, 'invalid_client_metadata');
    const client = await config.provider.registerClient!(checkRegistration(metadata, config.scopesSupported));
    return jsonAnswer(201, client);
  } catch (error) {
    if (error instanceof OAuthError) return oauthErrorAnswer(error);
    config.report(asError(error));
    return oauthErrorAnswer(new OAuthError('server_error', 'The registration failed', 500));
  }
}
