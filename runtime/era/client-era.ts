/**
 * What the Client remembers about the protocol era of a server: the cache of each server's
 * era, so that a second connection skips the `server/discover` probe. (Transports learn the
 * era of each message from the engine, with the message: TransportSendOptions.revision.)
 */
import type { Transport } from '../core/transport.js';

/** How a server was last found to speak. */
export type EraChoice =
  | {
    readonly era: 'stateless';
    /** The revision chosen from the server's `supportedVersions`. */
    readonly protocolVersion: string;
    /** The server's `server/discover` result, so that a later connection need not ask again. */
    readonly discover: unknown;
  }
  | { readonly era: 'stateful' };

/**
 * Remembers each server's era, keyed by server identity (the URL for HTTP, the command line
 * for stdio). Implement it over persistent storage to keep choices across restarts.
 */
export interface EraCache {
  get(server: string): EraChoice | undefined | Promise<EraChoice | undefined>;
  set(server: string, choice: EraChoice): void | Promise<void>;
  /** Forgets a choice that turned out wrong (the server was replaced by another era's). */
  delete(server: string): void | Promise<void>;
}

/**
 * An {@link EraCache} in memory, with a bound on the number of servers it remembers.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { InMemoryEraCache } from 'mcpgen/advanced';
 *
 * const eraCache = new InMemoryEraCache();
 * const client = new Client({ name: 'app', version: '1.0.0' }, { eraCache });
 * ```
 */
export class InMemoryEraCache implements EraCache {
  private readonly entries = new Map<string, EraChoice>();
  private readonly maxEntries: number;

  constructor(maxEntries = 1_000) {
    this.maxEntries = maxEntries;
  }

  get(server: string): EraChoice | undefined {
    return this.entries.get(server);
  }

  set(server: string, choice: EraChoice): void {
    this.entries.delete(server);
    this.entries.set(server, choice);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  delete(server: string): void {
    this.entries.delete(server);
  }

  /** Number of servers remembered. */
  get size(): number {
    return this.entries.size;
  }
}

/** The cache every Client shares unless given its own (or `eraCache: false`). */
export const defaultEraCache: EraCache = /* @__PURE__ */ new InMemoryEraCache();

/**
 * The identity of the server behind a transport: `url` for the HTTP transports, the command
 * line for stdio (its `command` and `args` options). Undefined when the transport reveals
 * neither, in which case nothing is cached.
 */
export function serverIdentity(transport: Transport): string | undefined {
  const shape = transport as { readonly url?: unknown; readonly options?: unknown; readonly serverKey?: unknown };
  if (typeof shape.serverKey === 'string') return shape.serverKey;
  if (shape.url instanceof URL) return shape.url.href;
  const options = shape.options as { readonly command?: unknown; readonly args?: unknown; readonly cwd?: unknown } | undefined;
  if (typeof options?.command === 'string') {
    const args = Array.isArray(options.args) ? options.args.map(String) : [];
    return `stdio:${JSON.stringify([options.command, ...args, typeof options.cwd === 'string' ? options.cwd : ''])}`;
  }
  return undefined;
}
