/**
 * Bounds a promise by a timeout and an optional abort signal, removing its timer and listener
 * as soon as it settles: a host makes many calls over a long life, and a timer or listener
 * left per call would keep accumulating.
 */
import { SdkError, messageOf } from '../../core/errors.js';

/** setTimeout's longest delay; a longer timeout means no timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Resolves or rejects like `promise`, unless `timeoutMs` passes first (rejects with
 * `timeoutError()`) or `signal` aborts (rejects with SdkError('REQUEST_CANCELLED')). The
 * promise itself is not stopped; callers cancel the work behind it themselves.
 *
 * @example
 * ```ts
 * import { SdkError } from 'mcpgen';
 * import { withDeadline } from 'mcpgen/host';
 *
 * const controller = new AbortController();
 * const body = await withDeadline(fetch('https://example.com').then((response) => response.text()), 5_000, controller.signal, () => new SdkError('REQUEST_TIMEOUT', 'no page within 5 s'));
 * ```
 */
export function withDeadline<T>(promise: Promise<T>, timeoutMs: number, signal: AbortSignal | undefined, timeoutError: () => Error): Promise<T> {
  if (signal?.aborted === true) {
    promise.catch(() => undefined);
    return Promise.reject(new SdkError('REQUEST_CANCELLED', `cancelled: ${messageOf(signal.reason)}`, { cause: signal.reason }));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      cleanup();
      reject(new SdkError('REQUEST_CANCELLED', `cancelled: ${messageOf(signal?.reason)}`, { cause: signal?.reason }));
    };
    const timer = timeoutMs <= MAX_TIMER_MS
      ? setTimeout(() => {
        cleanup();
        reject(timeoutError());
      }, timeoutMs)
      : undefined;
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}
