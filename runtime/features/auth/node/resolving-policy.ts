/**
 * The URL policy with DNS: the default policy judges a URL by its host as written, so a name
 * that resolves to 169.254.169.254 or 10.0.0.5 passes it. This one resolves the name first and
 * judges every address it resolves to, as the default policy judges a literal address: a
 * private, link-local or loopback address only for an MCP server in that same range, an
 * unspecified one never. The browser launch is not resolved (the user's browser resolves its
 * own names); everything the client itself fetches is.
 *
 * It judges the names when the URL is checked, not at connection time, so a name whose records
 * change in between (DNS rebinding with a short TTL) is not covered; a fetch whose connections
 * are pinned to checked addresses is the complete answer where that matters.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { addressClassOf, defaultAuthUrlPolicy, type AddressClass, type AuthUrlCheck, type AuthUrlPolicy } from '../url-policy.js';

/** Resolves a host name to its addresses (default: the system resolver, every address). */
export type HostLookup = (hostname: string) => Promise<readonly string[]>;

/** Options of {@link resolvingAuthUrlPolicy}. */
export interface ResolvingAuthUrlPolicyOptions {
  /** Resolves names (default `dns.lookup` with `all: true`). */
  readonly lookup?: HostLookup | undefined;
  /** The policy applied first, to the URL as written (default {@link defaultAuthUrlPolicy}). */
  readonly policy?: AuthUrlPolicy | undefined;
}

const systemLookup: HostLookup = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** The class of a resolved address, in the form URL parsing gives literal hosts. */
function classOfAddress(address: string): AddressClass {
  const host = address.includes(':') ? new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname : address;
  return addressClassOf(host);
}

/** The classes a host stands for: its own when it is a literal or `localhost`, else those of its addresses. */
async function classesOf(hostname: string, lookup: HostLookup): Promise<AddressClass[]> {
  const written = addressClassOf(hostname);
  if (written !== 'public' || /^[\d.]+$/.test(hostname) || hostname.startsWith('[')) return [written];
  try {
    return (await lookup(hostname)).map(classOfAddress);
  } catch {
    // A name that does not resolve cannot be reached either: the request itself fails.
    return ['public'];
  }
}

/**
 * A URL policy that resolves host names and refuses a URL any of whose addresses the default
 * policy would refuse as a literal.
 *
 * @example
 * ```ts
 * import { resolvingAuthUrlPolicy } from 'mcpgen/node';
 * import type { OAuthClientProvider } from 'mcpgen/auth';
 *
 * const settings: Pick<OAuthClientProvider, 'urlPolicy'> = { urlPolicy: resolvingAuthUrlPolicy() };
 * ```
 */
export function resolvingAuthUrlPolicy(options: ResolvingAuthUrlPolicyOptions = {}): AuthUrlPolicy {
  const lookup = options.lookup ?? systemLookup;
  const first = options.policy ?? defaultAuthUrlPolicy;
  return async (check: AuthUrlCheck) => {
    if (!(await first(check))) return false;
    if (check.purpose === 'browser') return true;
    const targets = await classesOf(check.url.hostname, lookup);
    if (targets.every((target) => target === 'public')) return true;
    if (targets.includes('unspecified')) return false;
    // A server on a private network may use an authorization server on that network.
    const servers = await classesOf(check.serverUrl.hostname, lookup);
    return targets.every((target) => target === 'public' || servers.includes(target));
  };
}
