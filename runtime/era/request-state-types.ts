/** The public shapes of sealed `requestState` (see request-state.ts): keys, options, bindings, payloads and the error. */
/**
 * A secret that seals and opens request states. `id` travels in every token so the receiver
 * picks the right key; it is not secret. Use 1–64 characters from `A–Z a–z 0–9 _ -`.
 */
export interface RequestStateKey {
  readonly id: string;
  /** At least 32 bytes of secret material; a string counts as its UTF-8 bytes. */
  readonly secret: string | Uint8Array;
}

/** How a {@link RequestStateCodec} seals and checks request states. */
export interface RequestStateOptions {
  /**
   * The first key seals; every key opens. To rotate, put the new key first and keep the old ones
   * until the states they sealed have expired (`ttlMs`). Default: one random key per process,
   * which only suits a single replica: replicas behind a load balancer must share keys, or a
   * retry landing on another replica fails with `unknown-key`.
   */
  readonly keys?: readonly RequestStateKey[];
  /**
   * Default false: signed only, the payload is base64url JSON the client can read. True:
   * AES-256-GCM, so the client sees nothing but the key id. Both modes open either format, so
   * switching mode does not break states already in flight.
   */
  readonly encrypt?: boolean;
  /** How long a sealed state stays valid, in milliseconds. Default 10 minutes. */
  readonly ttlMs?: number;
  /** The most rounds (InputRequiredResults) one request may take. Default 8. */
  readonly maxRounds?: number;
  /** Longest token accepted or produced, in characters. Default 65536. */
  readonly maxTokenLength?: number;
  /**
   * The server identity states are bound to, so that servers sharing keys do not accept each
   * other's states (e.g. the server's public URL). Default: the name in the server's `serverInfo`.
   */
  readonly audience?: string;
  /** The clock, in milliseconds since the epoch; for tests. Default `Date.now`. */
  readonly now?: () => number;
}

/**
 * What a state is bound to: the request it was issued for and the principal it was issued to.
 * {@link createRequestStateBinding} builds one from a request.
 */
export interface RequestStateBinding {
  /** `tools/call`, `prompts/get` or `resources/read`. */
  readonly method: string;
  /** The tool name, prompt name or resource URI. */
  readonly target: string;
  /** {@link digestArguments} of the request's arguments. */
  readonly argumentsDigest: string;
  /** The authenticated principal, when there is one, as `subject:<user>` or `client:<client id>`. */
  readonly subject?: string | undefined;
  /** The server the state was issued by (the codec's `audience`, else the server's name). */
  readonly server?: string | undefined;
}

/** A state as {@link RequestStateCodec.open} returns it, after every check passed. */
export interface RequestStatePayload {
  readonly binding: RequestStateBinding;
  /** Which round sealed this state: 1 for the first InputRequiredResult of the request. */
  readonly round: number;
  /** What the server kept from earlier rounds, e.g. the client's earlier input responses. */
  readonly answers: Readonly<Record<string, unknown>>;
  /** Any further JSON the server sealed in. */
  readonly user?: unknown;
  /** When the state stops being accepted, in milliseconds since the epoch. */
  readonly expiresAt: number;
}

/** What {@link RequestStateCodec.seal} takes. */
export interface RequestStateInput {
  readonly binding: RequestStateBinding;
  readonly round: number;
  readonly answers: Record<string, unknown>;
  readonly user?: unknown;
}

/** Why a state was refused. */
export type RequestStateErrorReason = 'malformed' | 'unknown-key' | 'bad-signature' | 'expired' | 'binding-mismatch' | 'too-many-rounds';

/**
 * A state was refused (or, for `too-many-rounds`, could not be sealed). The message starts with
 * `requestState` and says why without quoting the payload or any secret, so the server can
 * answer with it as it is (JSON-RPC invalid params).
 */
export class RequestStateError extends Error {
  readonly reason: RequestStateErrorReason;
  /** For `binding-mismatch`: the binding field that differs. */
  readonly field?: keyof RequestStateBinding;

  constructor(reason: RequestStateErrorReason, message: string, field?: keyof RequestStateBinding) {
    super(message);
    this.name = 'RequestStateError';
    this.reason = reason;
    if (field !== undefined) {
      this.field = field;
    }
  }
}
