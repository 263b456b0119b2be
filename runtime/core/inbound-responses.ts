/**
 * What the peer sends about this side's outgoing requests: the responses that settle them and
 * the progress notifications that touch them. Each function settles or reports, never answers,
 * because a response gets no reply.
 */
import { asError, ProtocolError, SdkError } from './errors.js';
import { isErrorResponse, isJsonObject, type JSONRPCErrorResponse, type JSONRPCResponse, type RequestId } from './jsonrpc.js';
import { progressOf } from './message-params.js';
import type { PendingRequest } from './pending-requests.js';
import type { EngineParts } from './protocol-options.js';
import { checkValue, describeIssues } from './validation.js';

/** Where the functions of this module settle requests and report what has no request. */
type ResponseSink = Pick<EngineParts, 'pending' | 'report'>;

/**
 * Settles the outgoing request a response answers: resolves it with its validated result,
 * rejects it with the peer's error, or reports a response nobody waits for.
 */
export function settleResponse(sink: ResponseSink, message: JSONRPCResponse): void {
  if (message.id === null) {
    const error = ProtocolError.fromError((message as JSONRPCErrorResponse).error);
    sink.report(new ProtocolError(error.code, `Peer reported an error without request id: ${error.message}`, error.data));
    return;
  }
  const request = sink.pending.take(message.id);
  if (request === undefined) {
    sink.report(new SdkError('UNEXPECTED_RESPONSE', `Response for unknown request id ${JSON.stringify(message.id)}`, {
      data: { id: message.id },
    }));
    return;
  }
  if (isErrorResponse(message)) {
    request.reject(ProtocolError.fromError(message.error));
    return;
  }
  const issues = request.resultValidator === null ? null : checkValue(request.resultValidator, message.result);
  if (issues === null) {
    request.resolve(message.result);
    return;
  }
  const text = `Invalid result for ${request.method}: ${describeIssues(issues, 'result')}`;
  request.reject(new SdkError('INVALID_RESULT', text, { data: { issues } }));
}

/**
 * Settles the outgoing request a response that cannot be read answered: rejects it with the
 * error, or reports the error when no request of that id is pending.
 */
export function failPending(sink: ResponseSink, id: RequestId | null, error: (request: PendingRequest | undefined) => Error): void {
  const request = id === null ? undefined : sink.pending.take(id);
  if (request === undefined) sink.report(error(undefined));
  else request.reject(error(request));
}

/** Hands a progress notification to the `onprogress` of the request owning its token. */
export function applyProgress(sink: ResponseSink, params: unknown): void {
  if (!isJsonObject(params)) {
    return;
  }
  const request = sink.pending.touch(params.progressToken);
  if (request === undefined) {
    sink.report(new SdkError('UNEXPECTED_RESPONSE', `Progress for unknown token ${JSON.stringify(params.progressToken)}`));
    return;
  }
  try {
    request.onprogress?.(progressOf(params));
  } catch (error) {
    sink.report(asError(error));
  }
}
