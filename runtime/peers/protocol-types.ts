/** One entry of a request map: params and final result. */
export interface RequestTypes {
  readonly params: unknown;
  readonly result: unknown;
}

/** One entry of a notification map. */
export interface NotificationTypes {
  readonly params: unknown;
}

/**
 * The method maps a Client or Server is typed with: a generated revision's `ProtocolTypes`
 * (the newest stateful revision's by default, or a pinned or freshly generated one's).
 */
export interface ProtocolTypesShape {
  readonly clientRequests: { readonly [method: string]: RequestTypes };
  readonly serverRequests: { readonly [method: string]: RequestTypes };
  readonly clientNotifications: { readonly [method: string]: NotificationTypes };
  readonly serverNotifications: { readonly [method: string]: NotificationTypes };
  /** Requests a server embeds in an `InputRequiredResult` (stateless era); a client answers them. */
  readonly inputRequests?: { readonly [method: string]: RequestTypes };
  readonly clientCapabilities?: object;
  readonly serverCapabilities?: object;
}

/** The capabilities type `T` declares for `side`, or `Fallback` when it declares none. */
export type CapabilitiesOf<T, Side extends 'clientCapabilities' | 'serverCapabilities', Fallback> = T extends { readonly [K in Side]: infer C } ? C : Fallback;

/** The methods two method maps share, each entry either map's (params and results of both). */
export type SharedMethods<A, B> = { [M in keyof A & keyof B]: A[M] | B[M] };

/** Member `K` of entry `M` of map `Map`; never when the map lacks the method. */
type MemberOf<Map, M, K extends PropertyKey> = M extends keyof Map ? (Map[M] extends { readonly [P in K]: infer V } ? V : never) : never;

/** The requests of either of two request maps, each with the params and results the maps have for it. */
export type EitherRequests<A, B> = {
  readonly [M in keyof A | keyof B]: { readonly params: MemberOf<A, M, 'params'> | MemberOf<B, M, 'params'>; readonly result: MemberOf<A, M, 'result'> | MemberOf<B, M, 'result'> };
};

/** The notifications of either of two notification maps, each with the params the maps have for it. */
export type EitherNotifications<A, B> = {
  readonly [M in keyof A | keyof B]: { readonly params: MemberOf<A, M, 'params'> | MemberOf<B, M, 'params'> };
};

/** The input requests `T` declares (none for protocol types generated before they were). */
export type InputRequestsOf<T> = T extends { readonly inputRequests: infer I } ? I : {};
