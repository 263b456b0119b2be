/**
 * Whether a handler returned a promise (or any thenable), which `await` would wait for. The
 * request path checks it to stay synchronous for handlers that return values: each `await` of
 * a value still costs a promise and a microtask turn.
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
