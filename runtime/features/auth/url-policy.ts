/**
 * Where the OAuth client may send requests and users: every URL it learns from a server
 * (a challenge's `resource_metadata`, the authorization server's issuer and endpoints) and the
 * authorization URL it opens in a browser passes this check first. Only `https:` is accepted,
 * and `http:` on loopback; a literal address in a private, link-local or unspecified range is
 * refused unless the MCP server itself is in that range, since metadata that points there is
 * how a remote server reaches the user's network (cloud metadata at 169.254.169.254, a router).
 */
import { SdkError } from '../../core/errors.js';

/** What a checked URL is for. */
export type AuthUrlPurpose =
  | 'resource-metadata'
  | 'authorization-server'
  | 'authorization-endpoint'
  | 'token-endpoint'
  | 'registration-endpoint'
  | 'revocation-endpoint'
  | 'jwks'
  | 'browser'
  /** An authorization server fetching a client's Client ID Metadata Document (`serverUrl` is then its issuer). */
  | 'client-metadata-document';

/** The question a {@link AuthUrlPolicy} answers: may the client use `url` for `purpose` on behalf of `serverUrl`? */
export interface AuthUrlCheck {
  readonly url: URL;
  readonly purpose: AuthUrlPurpose;
  /** The MCP server whose authorization is in progress. */
  readonly serverUrl: URL;
}

/**
 * Decides whether a URL passed the scheme check may be used: resolve true to allow it. The
 * default is {@link defaultAuthUrlPolicy}; a policy that wants to allow more (an authorization
 * server on the company network) usually falls back to it for everything else.
 */
export type AuthUrlPolicy = (check: AuthUrlCheck) => boolean | Promise<boolean>;

/** Where an address lies; a URL's class is its host's when the host is a literal address or `localhost`. */
export type AddressClass = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'public';

/** The class of an IPv4 address given as four numbers. */
function ipv4Class(parts: readonly number[]): AddressClass {
  const [a, b] = parts as [number, number];
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  return 'public';
}

/** The four numbers of a dotted IPv4 address, as WHATWG URL parsing normalises hosts to. */
function ipv4Parts(host: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (match === null) return undefined;
  const parts = match.slice(1).map(Number);
  return parts.every((part) => part <= 255) ? parts : undefined;
}

/**
 * The sixteen-bit groups of an IPv6 address in the form WHATWG URL parsing leaves hosts in
 * (hexadecimal groups, `::` compression, no embedded IPv4), or undefined when `host` is none.
 */
function ipv6Groups(host: string): number[] | undefined {
  if (!host.includes(':')) return undefined;
  const halves = host.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === '') return [];
    const groups = part.split(':').map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? parseInt(group, 16) : Number.NaN));
    return groups.some(Number.isNaN) ? undefined : groups;
  };
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if (head === undefined || tail === undefined) return undefined;
  const total = head.length + tail.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return undefined;
  return [...head, ...Array<number>(8 - total).fill(0), ...tail];
}

/** The class of an IPv6 address's groups. */
function ipv6Class(groups: readonly number[]): AddressClass {
  const zeroPrefix = groups.slice(0, 5).every((group) => group === 0);
  if (zeroPrefix && groups[5] === 0xffff) return ipv4Class([groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255]);
  if (groups.every((group) => group === 0)) return 'unspecified';
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return 'loopback';
  const first = groups[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'private';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  return 'public';
}

/**
 * The class of a host as a parsed URL spells it (`127.0.0.1`, `[::1]`, `localhost`, a name;
 * URL parsing has already turned `2130706433` and `[::ffff:127.0.0.1]` into those forms). Names
 * other than `localhost` are `public`: this check reads no DNS, so a name that resolves to a
 * private address passes it (a `urlPolicy` of one's own can resolve names first).
 */
export function addressClassOf(hostname: string): AddressClass {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const lower = host.toLowerCase().replace(/\.$/, '');
  if (lower === 'localhost' || lower.endsWith('.localhost')) return 'loopback';
  const v4 = ipv4Parts(lower);
  if (v4 !== undefined) return ipv4Class(v4);
  const v6 = ipv6Groups(lower.replace(/%.*$/, ''));
  return v6 === undefined ? 'public' : ipv6Class(v6);
}

/** Whether `url` is on a loopback address (127.0.0.0/8, ::1, localhost). */
export function isLoopbackUrl(url: URL): boolean {
  return addressClassOf(url.hostname) === 'loopback';
}

/**
 * The default policy: a URL on a public host is allowed; one in a private, link-local or
 * loopback range only when the MCP server is in that same range (a server on 127.0.0.1 may
 * use an authorization server on 127.0.0.1); an unspecified address (0.0.0.0, ::) never.
 */
export function defaultAuthUrlPolicy(check: AuthUrlCheck): boolean {
  const target = addressClassOf(check.url.hostname);
  if (target === 'public') return true;
  if (target === 'unspecified') return false;
  return addressClassOf(check.serverUrl.hostname) === target;
}

/**
 * Checks the scheme of `url`: `https:`, or `http:` on loopback. Throws
 * SdkError('AUTHORIZATION_FAILED') for anything else (`http:` elsewhere, `file:`,
 * `search-ms:`, `javascript:`, custom protocols). Synchronous, so that it can sit right in front
 * of a browser launch.
 */
export function assertAuthUrlScheme(url: URL, purpose: AuthUrlPurpose): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && isLoopbackUrl(url)) return;
  throw new SdkError('AUTHORIZATION_FAILED', `Refusing the ${purpose} URL ${JSON.stringify(url.href.slice(0, 200))}: OAuth URLs must be https (or http on loopback)`);
}

/** The checked URLs of one authorization: the MCP server they are for, and the policy that decides. */
export class AuthUrlGate {
  readonly serverUrl: URL;
  private readonly policy: AuthUrlPolicy;

  constructor(serverUrl: URL, policy: AuthUrlPolicy | undefined) {
    this.serverUrl = serverUrl;
    this.policy = policy ?? defaultAuthUrlPolicy;
  }

  /**
   * Parses `value` (relative to `base` when given) and checks its scheme and the policy;
   * resolves the URL or rejects with SdkError('AUTHORIZATION_FAILED').
   */
  async check(value: string | URL, purpose: AuthUrlPurpose, base?: URL): Promise<URL> {
    let url: URL;
    try {
      url = new URL(value, base);
    } catch {
      throw new SdkError('AUTHORIZATION_FAILED', `Refusing the ${purpose} URL ${JSON.stringify(String(value).slice(0, 200))}: it is not a URL`);
    }
    assertAuthUrlScheme(url, purpose);
    if (url.username !== '' || url.password !== '') {
      throw new SdkError('AUTHORIZATION_FAILED', `Refusing the ${purpose} URL at ${url.host}: it carries credentials`);
    }
    if (!(await this.policy({ url, purpose, serverUrl: this.serverUrl }))) {
      throw new SdkError('AUTHORIZATION_FAILED', `Refusing the ${purpose} URL ${url.origin}: the URL policy does not allow ${addressClassOf(url.hostname)} targets for ${this.serverUrl.origin}`);
    }
    return url;
  }
}
