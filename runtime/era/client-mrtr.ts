/**
 * The client half of multi round-trip requests (MRTR, 2026-07-28 on): when a server answers
 * `tools/call`, `prompts/get` or `resources/read` with an `InputRequiredResult`, the client
 * fulfils each embedded request (elicitation, sampling, roots) and sends the original request
 * again, under a new id, with the answers in `inputResponses` and the server's `requestState`
 * echoed verbatim, until the result is complete.
 */
import { isJsonObject } from '../core/jsonrpc.js';
import { SdkError } from '../core/errors.js';
import type { Params, RequestOptions } from '../core/request-context.js';

/** The `resultType` of a result that asks for input. */
export const INPUT_REQUIRED = 'input_required';

/** Rounds a request may take before the client gives up (the first request counts). */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** What one MRTR exchange needs from the Client. */
export interface InputRoundsHost {
  /** Sends one retry of the request (its own JSON-RPC id) and resolves with its validated result. */
  send(params: Params, options: RequestOptions): Promise<unknown>;
  /** Answers one embedded request; `signal` aborts when the caller gives up. */
  fulfil(key: string, method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
}

/** Limits of one MRTR exchange. */
export interface InputRoundsLimits {
  /** Most rounds (requests sent) before SdkError('INPUT_ROUNDS_EXCEEDED'). */
  readonly maxRounds: number;
  /** The whole exchange's time budget in milliseconds, handlers included. */
  readonly timeoutMs: number;
  /** When the first round was sent (`Date.now()`), where the budget starts. */
  readonly startedAt: number;
}

/** Whether a result asks for input (an `InputRequiredResult`). */
export function isInputRequired(result: unknown): boolean {
  return isJsonObject(result) && result.resultType === INPUT_REQUIRED;
}

/**
 * Follows `input_required` results from `first` (the answer to the first round, sent with
 * `params` as an ordinary request) until a complete one arrives. The caller's signal and the
 * time budget cover every round and every handler. A retry carries exactly the answers of the
 * last round and its `requestState`, and no state at all when the server sent none.
 */
export async function continueInputRounds(
  method: string,
  params: Params,
  first: unknown,
  options: RequestOptions,
  host: InputRoundsHost,
  limits: InputRoundsLimits,
): Promise<unknown> {
  const deadline = limits.startedAt + limits.timeoutMs;
  const base: Params = { ...params };
  delete base.inputResponses;
  delete base.requestState;
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new SdkError('REQUEST_TIMEOUT', `${method} did not complete within ${limits.timeoutMs} ms (all input rounds included)`));
  }, Math.max(1, deadline - Date.now()));
  const onAbort = (): void => controller.abort(options.signal?.reason);
  if (options.signal?.aborted === true) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let result: unknown = first;
    for (let round = 1; ; round++) {
      if (!isJsonObject(result) || result.resultType !== INPUT_REQUIRED) return result;
      if (round >= limits.maxRounds) {
        throw new SdkError('INPUT_ROUNDS_EXCEEDED', `${method} still required input after ${round} rounds; giving up (maxInputRounds ${limits.maxRounds})`, {
          data: { lastResult: result },
        });
      }
      const requests = isJsonObject(result.inputRequests) ? result.inputRequests : {};
      const responses: Record<string, unknown> = {};
      try {
        await Promise.all(Object.entries(requests).map(async ([key, request]) => {
          const embedded = isJsonObject(request) ? request : {};
          responses[key] = await raceAbort(host.fulfil(key, String(embedded.method), embedded.params, controller.signal), controller.signal);
        }));
      } catch (error) {
        throw timedOut(controller) ?? error;
      }
      const sent: Params = { ...base };
      if (Object.keys(requests).length > 0) sent.inputResponses = responses;
      if (typeof result.requestState === 'string') sent.requestState = result.requestState;
      try {
        result = await host.send(sent, { ...options, signal: controller.signal, timeout: Math.max(1, deadline - Date.now()) });
      } catch (error) {
        throw timedOut(controller) ?? error;
      }
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function timedOut(controller: AbortController): SdkError | undefined {
  const reason: unknown = controller.signal.reason;
  return reason instanceof SdkError && reason.code === 'REQUEST_TIMEOUT' ? reason : undefined;
}

/** Settles with `work`, or rejects as soon as `signal` aborts (the handler may keep running). */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof SdkError) return reason;
  return new SdkError('REQUEST_CANCELLED', `Request was cancelled while answering input requests: ${reason instanceof Error ? reason.message : String(reason)}`, { cause: reason });
}
