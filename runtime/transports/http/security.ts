/**
 * Request-level protections of the HTTP server: DNS-rebinding defence (Host and Origin
 * allowlists) and opt-in CORS. A DNS-rebinding attack makes a browser send requests to a
 * local server under a foreign host name, so the Host header betrays it; a cross-site page
 * betrays itself through its Origin header.
 */
import type { HeaderMap, HttpRequestView } from './http-types.js';

/** Host names a loopback server answers to. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Origins a loopback server trusts by default: pages served from loopback, on any port. */
export const LOOPBACK_ORIGINS: readonly string[] = [
  'http://localhost:*',
  'https://localhost:*',
  'http://127.0.0.1:*',
  'https://127.0.0.1:*',
  'http://[::1]:*',
  'https://[::1]:*',
];

/** Headers a browser client needs to send to an MCP endpoint. */
export const CORS_ALLOWED_HEADERS = ['Content-Type', 'Accept', 'Authorization', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'Last-Event-ID', 'Mcp-Method', 'Mcp-Name'];
/** Response headers a browser client needs to read. */
export const CORS_EXPOSED_HEADERS = ['Mcp-Session-Id', 'WWW-Authenticate'];

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
   * Check Host and Origin against loopback allowlists when none are configured. Default: on
   * when the request arrived on a loopback address (or `bindAddress` is loopback). Allowlists
   * given explicitly apply regardless of this switch.
   */
  readonly dnsRebindingProtection?: boolean | undefined;
  /** Accepted Host header values: `name` (any port), `name:port`, or `name:*`. */
  readonly allowedHosts?: readonly string[] | undefined;
  /** Accepted Origin header values: exact origins, or `scheme://host:*` for any port. */
  readonly allowedOrigins?: readonly string[] | undefined;
  /** The address the server listens on, when the platform cannot tell per request. */
  readonly bindAddress?: string | undefined;
  readonly cors?: boolean | CorsOptions | undefined;
}

/** A refusal: the status and the reason for the error body. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
}

/** True for loopback addresses and the `localhost` name. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) {
    return false;
  }
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || bare.startsWith('127.') || bare.startsWith('::ffff:127.');
}

/** Decides, per request, whether Host and Origin are acceptable and which CORS headers apply. */
export class SecurityPolicy {
  private readonly options: SecurityOptions;
  private readonly cors: CorsOptions | undefined;

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
    const protect = this.options.dnsRebindingProtection ?? (isLoopbackAddress(request.localAddress ?? this.options.bindAddress));
    const hosts = this.options.allowedHosts ?? (protect ? LOOPBACK_HOSTS : undefined);
    if (hosts !== undefined) {
      const host = request.header('host');
      if (host === undefined || !hosts.some((entry) => hostMatches(entry, host))) {
        return { status: 403, message: `Forbidden: Host ${JSON.stringify(host ?? '')} is not allowed` };
      }
    }
    const origin = request.header('origin');
    if (origin !== undefined) {
      const origins = this.allowedOrigins(protect);
      if (origins !== undefined && !origins.some((entry) => originMatches(entry, origin))) {
        return { status: 403, message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed` };
      }
    }
    return undefined;
  }

  /** CORS headers for an actual (non-preflight) response; empty when CORS is off or not applicable. */
  responseHeaders(request: HttpRequestView): HeaderMap {
    const origin = this.corsOrigin(request);
    if (origin === undefined) {
      return {};
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

  private allowedOrigins(protect: boolean): readonly string[] | undefined {
    const configured = this.options.allowedOrigins;
    const corsOrigins = this.cors?.origins;
    if (configured === undefined && !protect) {
      return undefined;
    }
    // Origins granted CORS access are trusted origins too.
    return [...(configured ?? LOOPBACK_ORIGINS), ...(corsOrigins ?? [])];
  }

  private corsOrigin(request: HttpRequestView): string | undefined {
    const origin = request.header('origin');
    if (this.cors === undefined || origin === undefined) {
      return undefined;
    }
    const allowed = this.cors.origins;
    if (allowed !== undefined && !allowed.some((entry) => originMatches(entry, origin))) {
      return undefined;
    }
    return origin;
  }
}

/** Matches a Host header against `name`, `name:port` or `name:*` (case-insensitive). */
export function hostMatches(entry: string, host: string): boolean {
  const wanted = splitHost(entry.toLowerCase());
  const actual = splitHost(host.trim().toLowerCase());
  if (wanted.name !== actual.name) {
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

function splitHost(value: string): { name: string; port: string | undefined } {
  const bracket = value.startsWith('[') ? value.indexOf(']') : -1;
  const colon = value.indexOf(':', bracket + 1);
  if (bracket < 0 && value.indexOf(':') !== value.lastIndexOf(':')) {
    // A bare IPv6 address has no port.
    return { name: value, port: undefined };
  }
  return colon < 0 ? { name: value, port: undefined } : { name: value.slice(0, colon), port: value.slice(colon + 1) };
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
