/** Sending helpers of the engine: a send whose synchronous throw is a rejection, routing hints, cancellation errors. */
import { messageOf, SdkError } from './errors.js';
import type { JSONRPCMessage, RequestId } from './jsonrpc.js';
import type { Transport, TransportSendOptions } from './transport.js';

/** Calls `transport.send` so that a synchronous throw becomes a rejection. */
export async function transmit(
  transport: Transport,
  message: JSONRPCMessage | JSONRPCMessage[],
  options: TransportSendOptions | undefined,
): Promise<void> {
  await transport.send(message, options);
}

export function relatedOptions(relatedRequestId: RequestId | undefined): TransportSendOptions | undefined {
  return relatedRequestId === undefined ? undefined : { relatedRequestId };
}

export function reasonText(reason: unknown): string {
  if (reason === undefined) {
    return 'Request cancelled';
  }
  return messageOf(reason);
}

export function cancelledError(method: string, reason: unknown): SdkError {
  return new SdkError('REQUEST_CANCELLED', `Request ${method} was cancelled: ${reasonText(reason)}`, { cause: reason });
}
