/**
 * Typed senders built from a generated sender table (sender name → method, over every pinned
 * revision) and the method maps a peer is typed with: a sender whose method the maps have is
 * callable with that method's params and result; any other is a {@link MethodUnavailable},
 * which has no call signature, so calling it is a compile error that names the method.
 */

/** Stands in for a sender whose method the peer's protocol types lack; it cannot be called. */
export interface MethodUnavailable<M extends string> {
  /** The method the peer's protocol types lack: type the peer with a revision that has it (and pin that revision). */
  readonly unavailable: M;
}

/**
 * The params a caller passes: the members named `Filled`, which the runtime fills in (the
 * client's `_meta` in the stateless era), become optional and partial. Distributes over unions.
 */
export type CallerParams<P, Filled extends PropertyKey = never> = [Filled] extends [never]
  ? P
  : P extends unknown
    ? Omit<P, Filled> & { [K in Filled & keyof P]?: Partial<P[K]> }
    : never;

/**
 * `true` when a call may leave out the params of entry `E`: the method takes none, the map says
 * they are optional, or every member they require is one the runtime fills. For an entry that
 * is a union (a method of two revisions), `boolean` when only some of them allow it.
 */
type ParamsOmittable<E, Filled extends PropertyKey> = E extends { readonly params: infer P }
  ? undefined extends P
    ? true
    : E extends { readonly paramsRequired: false }
      ? true
      : [Filled] extends [never]
        ? false
        : P extends { readonly [K in Filled]: unknown }
          ? ({} extends CallerParams<P, Filled> ? true : false)
          : false
  : false;

type ParamsOf<E> = E extends { readonly params: infer P } ? P : never;
type ResultOf<E> = E extends { readonly result: infer R } ? R : never;

/** The sender of request entry `E`; its params may be left out only when every variant allows it. */
export type RequestSender<E, O, Filled extends PropertyKey = never> = false extends ParamsOmittable<E, Filled>
  ? (params: CallerParams<ParamsOf<E>, Filled>, options?: O) => Promise<ResultOf<E>>
  : (params?: CallerParams<ParamsOf<E>, Filled>, options?: O) => Promise<ResultOf<E>>;

/** The sender of notification entry `E`. */
export type NotificationSender<E, O, Filled extends PropertyKey = never> = false extends ParamsOmittable<E, Filled>
  ? (params: CallerParams<ParamsOf<E>, Filled>, options?: O) => Promise<void>
  : (params?: CallerParams<ParamsOf<E>, Filled>, options?: O) => Promise<void>;

/** One request sender per name of the table `Names`, typed from the request map `Map` (writable, as methods are: wrappers replace them). */
export type RequestSenders<Names extends { readonly [name: string]: string }, Map, O, Filled extends PropertyKey = never> = {
  -readonly [S in keyof Names]: Names[S] extends keyof Map ? RequestSender<Map[Names[S]], O, Filled> : MethodUnavailable<Names[S]>;
};

/** One notification sender per name of the table `Names`, typed from the notification map `Map`. */
export type NotificationSenders<Names extends { readonly [name: string]: string }, Map, O, Filled extends PropertyKey = never> = {
  -readonly [S in keyof Names]: Names[S] extends keyof Map ? NotificationSender<Map[Names[S]], O, Filled> : MethodUnavailable<Names[S]>;
};
