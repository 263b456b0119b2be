import type { RequestOptions } from '../core/request-context.js';

/** Sends one method for `peer`: what a typed stub calls. */
export type PeerSender<P> = (peer: P, method: string, params: unknown, options?: RequestOptions) => Promise<unknown>;

/**
 * Puts the typed stubs (`callTool`, `notifyToolListChanged`…) of one side on a peer class's
 * prototype, each calling `send` or `notify` with its method: one per entry of that side's
 * generated sender tables, `requests` and `notifications`. The peer passes them, so that a
 * bundle keeps its own side's alone. They span every pinned revision and are plain names, so
 * constructing a Client or Server loads no revision and builds no stub (a stateless HTTP
 * server constructs one Server per request). Which of them a peer may call is its types'
 * business (see senders.ts); a stub of a method the negotiated revision lacks is refused when
 * called.
 *
 * Each stub is an accessor that, on first read, binds a stub to the peer and keeps it as the
 * peer's own property: a stub taken off its peer (`const { callTool } = client`) still sends
 * through that peer, and assigning one (a wrapper) replaces it for that peer alone.
 */
export function installTypedSenders<P extends object>(
  prototype: P,
  requests: Readonly<Record<string, string>>,
  notifications: Readonly<Record<string, string>>,
  send: PeerSender<P>,
  notify: PeerSender<P>,
): void {
  const own = (peer: P, name: string, value: unknown): void => {
    Object.defineProperty(peer, name, { value, writable: true, configurable: true, enumerable: true });
  };
  const install = (name: string, method: string, sender: PeerSender<P>): void => {
    Object.defineProperty(prototype, name, {
      get(this: P) {
        const stub = (params: unknown, options?: RequestOptions) => sender(this, method, params, options);
        own(this, name, stub);
        return stub;
      },
      set(this: P, value: unknown) {
        own(this, name, value);
      },
      configurable: true,
    });
  };
  for (const [name, method] of Object.entries(requests)) install(name, method, send);
  for (const [name, method] of Object.entries(notifications)) install(name, method, notify);
}
