/**
 * Request-level protections of the HTTP server: DNS-rebinding defence (Host and Origin
 * allowlists) and opt-in CORS. A DNS-rebinding attack makes a browser send requests to a
 * local server under a foreign host name, so the Host header betrays it; a cross-site page
 * betrays itself through its Origin header.
 */
import type { HeaderMap, HttpRequestView } from './http-types.js';

/** Host names a loopback server answers to. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Headers a browser client needs to send to an MCP endpoint. */
export const CORS_ALLOWED_HEADERS = ['Content-Type', 'Accept', 'Authorization', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'Last-Event-ID', 'Mcp-Method', 'Mcp-Name'];
/** Response headers a browser client needs to read. */
export const CORS_EXPOSED_HEADERS = ['Mcp-Session-Id', 'WWW-Authenticate'];

/** The shared answer of {@link SecurityPolicy.responseHeaders} without CORS; frozen, since every response gets it. */
const NO_HEADERS: HeaderMap = Object.freeze({});

/** CORS settings; CORS is off unless configured. */
export interface CorsOptions {
  /** Origins allowed to read responses (exact, or `scheme://host:*` for any port); default: every origin the Origin check admits. */
  readonly origins?: readonly string[] | undefined;
  /** How long a browser may cache a preflight answer (default 600 s). */
  readonly maxAgeSeconds?: number | undefined;
}

/** Options of {@link SecurityPolicy}. */
export interface SecurityOptions {
  /**
   * Checks Host and Origin against DNS rebinding (default true, on every platform and bind).
   * Without allowlists only loopback names are accepted (`localhost`, `127.0.0.1`, `[::1]` on
   * any port, and pages served from them). False turns the checks off, for a handler behind
   * a reverse proxy or platform that checks Host and Origin itself; allowlists given explicitly
   * apply regardless of this switch.
   */
  readonly dnsRebindingProtection?: boolean | undefined;
  /**
   * Accepted Host header values instead of the loopback names: `name` (any port), `name:port`,
   * or `name:*`. Pages served from these hosts pass the Origin check unless `allowedOrigins`
   * is given.
   */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Accepted Origin header values: exact origins, or `scheme://host:*` for any port. */
  readonly allowedOrigins?: readonly string[] | undefined;
  readonly cors?: boolean | CorsOptions | undefined;
}

/** A refusal: the status and the reason for the error body. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
}

/** Decides, per request, whether Host and Origin are acceptable and which CORS headers apply. */
export class SecurityPolicy {
  private readonly options: SecurityOptions;
  private readonly cors: CorsOptions | undefined;
  /** The last Host value found acceptable: the allowlists never change, and clients repeat their Host. */
  private acceptedHost: string | undefined;

  constructor(options: SecurityOptions) {
    this.options = options;
    this.cors = options.cors === true ? {} : options.cors === false ? undefined : options.cors;
  }

  /** Whether preflight requests are answered. */
  get corsEnabled(): boolean {
    return this.cors !== undefined;
  }

  /** Returns a refusal (403) for a foreign Host or Origin, or undefined to proceed. */
  check(request: HttpRequestView): Refusal | undefined {
    const protect = this.options.dnsRebindingProtection ?? true;
    const hosts = this.options.allowedHosts ?? (protect ? LOOPBACK_HOSTS : undefined);
    if (hosts !== undefined) {
      const host = request.header('host');
      if (host === undefined || (host !== this.acceptedHost && !hosts.some((entry) => hostMatches(entry, host)))) {
        return { status: 403, message: `Forbidden: Host ${JSON.stringify(host ?? '')} is not allowed` };
      }
      this.acceptedHost = host;
    }
    const origin = request.header('origin');
    if (origin !== undefined && !this.originAllowed(origin, hosts)) {
      return { status: 403, message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed` };
    }
    return undefined;
  }

  /** CORS headers for an actual (non-preflight) response; empty when CORS is off or not applicable. */
  responseHeaders(request: HttpRequestView): HeaderMap {
    const origin = this.cors === undefined ? undefined : this.corsOrigin(request);
    if (origin === undefined) {
      return NO_HEADERS;
    }
    return {
      'access-control-allow-origin': origin,
      'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
      vary: 'Origin',
    };
  }

  /** Headers of a preflight answer; empty when CORS is off or the origin is not allowed. */
  preflightHeaders(request: HttpRequestView): HeaderMap {
    const origin = this.corsOrigin(request);
    if (origin === undefined) {
      return {};
    }
    return {
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers': allowedHeaders(request.header('access-control-request-headers')),
      'access-control-expose-headers': CORS_EXPOSED_HEADERS.join(', '),
      'access-control-max-age': String(this.cors?.maxAgeSeconds ?? 600),
      vary: 'Origin',
    };
  }

  /**
   * Configured origins (and those granted CORS access) when given; otherwise pages served from
   * an accepted host; anything when neither Host nor Origin is checked.
   */
  private originAllowed(origin: string, hosts: readonly string[] | undefined): boolean {
    const configured = this.options.allowedOrigins;
    const corsOrigins = this.cors?.origins ?? [];
    if (corsOrigins.some((entry) => originMatches(entry, origin))) {
      return true;
    }
    if (configured !== undefined) {
      return configured.some((entry) => originMatches(entry, origin));
    }
    if (hosts === undefined) {
      return true;
    }
    const host = originHost(origin);
    return host !== undefined && hosts.some((entry) => hostMatches(entry, host));
  }

  private corsOrigin(request: HttpRequestView): string | undefined {
    const origin = request.header('origin');
    if (this.cors === undefined || origin === undefined) {
      return undefined;
    }
    const allowed = this.cors.origins;
    if (allowed !== undefined) return allowed.some((entry) => originMatches(entry, origin)) ? origin : undefined;
    // `cors: true` names no origins: grant pages served from the accepted hosts (loopback unless
    // configured), never any page at all, even where a proxy checks Host and Origin instead.
    return this.originAllowed(origin, this.options.allowedHosts ?? LOOPBACK_HOSTS) ? origin : undefined;
  }
}

/**
 * Matches a Host header against `name`, `name:port` or `name:*` (case-insensitive). The header
 * must be a bare host with an optional port (RFC 9110 `uri-host [ ":" port ]`): userinfo, a
 * path, an empty or non-numeric port, or an unbracketed IPv6 address never match.
 */
export function hostMatches(entry: string, host: string): boolean {
  const wanted = parseHost(entry.trim().toLowerCase(), true);
  const actual = parseHost(host.trim().toLowerCase(), false);
  if (wanted === undefined || actual === undefined || wanted.name !== actual.name) {
    return false;
  }
  return wanted.port === undefined || wanted.port === '*' || wanted.port === actual.port;
}

/** Matches an Origin header against an exact origin or `scheme://host:*`. */
export function originMatches(entry: string, origin: string): boolean {
  const wanted = entry.toLowerCase();
  const actual = origin.trim().toLowerCase();
  if (!wanted.endsWith(':*')) {
    return wanted === actual;
  }
  const prefix = wanted.slice(0, -2);
  return actual === prefix || (actual.startsWith(`${prefix}:`) && /^\d+$/.test(actual.slice(prefix.length + 1)));
}

/** A reg-name or IPv4 address: letters, digits, `-`, `_` and inner dots. */
const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;
/** The inside of an IPv6 literal: hex digits, colons and an optional embedded IPv4 part. */
const IPV6_LITERAL = /^[0-9a-f:]+(?:\.[0-9]+){0,3}$/;

/**
 * Splits `host[:port]` strictly; undefined for anything else. `wildcard` admits `*` as the
 * port (allowlist entries). Ports are digits only and at most 65535, compared as written.
 */
function parseHost(value: string, wildcard: boolean): { name: string; port: string | undefined } | undefined {
  let name: string;
  let rest: string;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    if (close < 0 || !IPV6_LITERAL.test(value.slice(1, close)) || !value.slice(1, close).includes(':')) return undefined;
    name = value.slice(0, close + 1);
    rest = value.slice(close + 1);
  } else {
    const colon = value.indexOf(':');
    name = colon < 0 ? value : value.slice(0, colon);
    rest = colon < 0 ? '' : value.slice(colon);
    if (!HOST_NAME.test(name)) return undefined;
  }
  if (rest === '') return { name, port: undefined };
  const port = rest.slice(1);
  if (!rest.startsWith(':')) return undefined;
  if (wildcard && port === '*') return { name, port };
  return /^[0-9]{1,5}$/.test(port) && Number(port) <= 65_535 ? { name, port } : undefined;
}

/** The `host[:port]` of an origin (`scheme://host[:port]`), or undefined when it is not one. */
function originHost(origin: string): string | undefined {
  const match = /^https?:\/\/([^/?#]+)$/i.exec(origin.trim());
  return match?.[1];
}

/**
 * The headers a preflight allows: the fixed MCP ones, plus the `Mcp-Param-*` headers the
 * browser asks for, whose names come from each tool's `x-mcp-header` annotations.
 */
function allowedHeaders(requested: string | undefined): string {
  const params = (requested ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => /^mcp-param-[!#$%&'*+\-.^_`|~0-9a-z]+$/i.test(name));
  return [...CORS_ALLOWED_HEADERS, ...params].join(', ');
}
