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
  readonly clientCapabilities?: object;
  readonly serverCapabilities?: object;
}

/** The capabilities type `T` declares for `side`, or `Fallback` when it declares none. */
export type CapabilitiesOf<T, Side extends 'clientCapabilities' | 'serverCapabilities', Fallback> = T extends { readonly [K in Side]: infer C } ? C : Fallback;
