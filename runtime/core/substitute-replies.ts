/**
 * The answers the engine sends in place of the ones it owes when those cannot go out as built,
 * so that every request is answered exactly once: a reply that cannot be encoded as JSON, and
 * the requests of an inbound value the backlog dropped.
 */
import { asError, messageOf, SdkError } from './errors.js';
import { isJsonObject, isRequestId, JSONRPC_VERSION, type JSONRPCErrorResponse, type JSONRPCResponse, type RequestId } from './jsonrpc.js';
import { transmit } from './outbound.js';
import { DELIVERED, type Transport, type TransportSendOptions } from './transport.js';

/** What sending replies needs from the engine. */
export interface ReplyHost {
  /** Whether `transport` is still the engine's connection. */
  connected(transport: Transport): boolean;
  /** The bound revision's -32603. */
  internalErrorCode(): number;
  report(error: Error): void;
}

/**
 * Sends the reply to `inbound`, then runs `leave` (which frees the handler place the reply
 * held). When the send fails because the reply cannot be encoded, the responses that cannot are
 * replaced by internal errors and the reply goes out again, so that each request still gets its
 * one answer (and stops being pending in the transport). A reply that goes out costs one
 * promise reaction, whichever way the send ends, and none when the transport answers
 * {@link DELIVERED}.
 */
export function sendReply(
  transport: Transport,
  reply: JSONRPCResponse | JSONRPCResponse[],
  inbound: unknown,
  options: TransportSendOptions,
  host: ReplyHost,
  leave?: () => void,
): void {
  const sending = transmit(transport, reply, options);
  if (sending === DELIVERED) {
    leave?.();
  } else if (leave === undefined) {
    void sending.then(undefined, (error: unknown) => resendEncodable(transport, reply, inbound, options, host, error));
  } else {
    void sending.then(leave, (error: unknown) => resendEncodable(transport, reply, inbound, options, host, error).then(leave));
  }
}

/** After a failed send: sends the reply again with what cannot be encoded replaced, or reports the failure. Never rejects. */
function resendEncodable(transport: Transport, reply: JSONRPCResponse | JSONRPCResponse[], inbound: unknown, options: TransportSendOptions, host: ReplyHost, error: unknown): Promise<void> {
  const failed = (failure: unknown): void => {
    host.report(new SdkError('SEND_FAILED', `Failed to send a reply: ${messageOf(failure)}`, { cause: failure }));
  };
  const substitute = host.connected(transport) ? encodableReply(reply, inbound, host.internalErrorCode()) : undefined;
  if (substitute === undefined) {
    failed(error);
    return Promise.resolve();
  }
  for (const problem of substitute.problems) {
    host.report(new SdkError('INVALID_RESULT', `Answered with an internal error: ${problem}`, { cause: error }));
  }
  return transmit(transport, substitute.message, options).catch(failed);
}

/** Answers each request of a value the inbound backlog dropped, so that none waits for an answer that never comes. */
export function refuseDropped(transport: Transport, value: unknown, host: ReplyHost): void {
  for (const answer of droppedValueAnswers(value, host.internalErrorCode())) {
    transport.send(answer).catch((failure: unknown) => host.report(asError(failure)));
  }
}

/** A reply rebuilt so that it encodes, and what was replaced in it. */
export interface SubstitutedReply {
  readonly message: JSONRPCResponse | JSONRPCResponse[];
  /** One line per replaced response: which method's answer could not be encoded, and why. */
  readonly problems: readonly string[];
}

/**
 * Replaces every response of `reply` that JSON cannot encode (a stack overflow on deep nesting,
 * a BigInt, a cycle) by a -32603 error naming the method of the request it answers, found in
 * `inbound` (the value the reply answers). Undefined when every response encodes, because a send
 * that failed then failed for another reason. Runs only after a send failed, so encoding each
 * response once more costs nothing on the normal path.
 */
export function encodableReply(
  reply: JSONRPCResponse | JSONRPCResponse[],
  inbound: unknown,
  internalErrorCode: number,
): SubstitutedReply | undefined {
  const problems: string[] = [];
  const substitute = (response: JSONRPCResponse): JSONRPCResponse => {
    const failure = encodingFailure(response);
    if (failure === undefined) {
      return response;
    }
    const method = methodOf(inbound, response.id) ?? 'the request';
    const part = 'error' in response ? 'error answering' : 'result of';
    const text = `the ${part} ${method} cannot be encoded as JSON: ${failure}`;
    problems.push(text);
    return { jsonrpc: JSONRPC_VERSION, id: response.id, error: { code: internalErrorCode, message: `Internal error: ${text}` } };
  };
  const message = Array.isArray(reply) ? reply.map(substitute) : substitute(reply);
  return problems.length === 0 ? undefined : { message, problems };
}

/** Why `response` cannot be encoded (the first line of JSON.stringify's error), or undefined when it can. */
function encodingFailure(response: JSONRPCResponse): string | undefined {
  try {
    JSON.stringify(response);
    return undefined;
  } catch (error) {
    return messageOf(error).split('\n')[0];
  }
}

/** The method of the request with `id` in an inbound message or batch. */
function methodOf(inbound: unknown, id: RequestId | null): string | undefined {
  for (const message of Array.isArray(inbound) ? inbound : [inbound]) {
    if (isJsonObject(message) && message.id === id && typeof message.method === 'string') {
      return message.method;
    }
  }
  return undefined;
}

/**
 * The error answers to the requests of a value the inbound backlog dropped (notifications and
 * responses in it need none).
 */
function droppedValueAnswers(value: unknown, internalErrorCode: number): JSONRPCErrorResponse[] {
  const answers: JSONRPCErrorResponse[] = [];
  for (const message of Array.isArray(value) ? value : [value]) {
    if (!isJsonObject(message) || typeof message.method !== 'string' || !isRequestId(message.id)) continue;
    const error = { code: internalErrorCode, message: 'Internal error: too many messages wait for the protocol revision to load; send it again later' };
    answers.push({ jsonrpc: JSONRPC_VERSION, id: message.id, error });
  }
  return answers;
}
