/**
 * When a client transport tries an event stream again after it dropped: the server's `retry`
 * field wins for the first attempt after a stream that worked, because the spec requires
 * clients to respect it; failed attempts back off exponentially up to a ceiling.
 */

/** How dropped event streams are re-established. */
export interface ReconnectOptions {
  /** Wait before the first attempt when the server sent no `retry` field; default 1000 ms. */
  readonly initialDelayMs?: number | undefined;
  /** Longest wait between attempts; default 30 000 ms. */
  readonly maxDelayMs?: number | undefined;
  /** Growth of the wait after each failed attempt; default 2. */
  readonly factor?: number | undefined;
  /**
   * Failed attempts in a row after which the stream is given up (requests still waiting on it
   * then fail); default 5. `0` disables reconnection.
   */
  readonly maxRetries?: number | undefined;
}

/** {@link ReconnectOptions} with every default applied. */
export interface ReconnectPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly factor: number;
  readonly maxRetries: number;
}

/** Default {@link ReconnectPolicy}. */
export const DEFAULT_RECONNECT_POLICY: ReconnectPolicy = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  factor: 2,
  maxRetries: 5,
};

/** Applies the defaults and rejects values that would make the schedule meaningless. */
export function reconnectPolicy(options: ReconnectOptions | undefined): ReconnectPolicy {
  const policy: ReconnectPolicy = {
    initialDelayMs: options?.initialDelayMs ?? DEFAULT_RECONNECT_POLICY.initialDelayMs,
    maxDelayMs: options?.maxDelayMs ?? DEFAULT_RECONNECT_POLICY.maxDelayMs,
    factor: options?.factor ?? DEFAULT_RECONNECT_POLICY.factor,
    maxRetries: options?.maxRetries ?? DEFAULT_RECONNECT_POLICY.maxRetries,
  };
  if (!(policy.initialDelayMs >= 0) || !(policy.maxDelayMs >= 0) || !(policy.factor >= 1) || !(policy.maxRetries >= 0)) {
    throw new RangeError(`Invalid reconnect options ${JSON.stringify(policy)}`);
  }
  return policy;
}

/**
 * The wait before the next attempt, given how many attempts in a row have failed and the
 * last `retry` value the server sent on the stream (if any).
 */
export function reconnectDelay(policy: ReconnectPolicy, failures: number, serverRetryMs: number | undefined): number {
  if (failures === 0 && serverRetryMs !== undefined) {
    return serverRetryMs;
  }
  const grown = policy.initialDelayMs * policy.factor ** failures;
  return Math.min(Math.max(grown, serverRetryMs ?? 0), policy.maxDelayMs);
}
