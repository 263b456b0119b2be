/**
 * How a Client answers an input request (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`) embedded in an `InputRequiredResult`: with the handler registered for it, after
 * checking the method and the capability, and with its result validated.
 */
import { describePath, hasCapability, type CapabilityObject } from '../era/capabilities.js';
import type { RevisionModule } from '../core/contract.js';
import { SdkError } from '../core/errors.js';
import { isJsonObject } from '../core/jsonrpc.js';
import type { Params, RequestContext, RequestHandler } from '../core/request-context.js';
import { checkValue, describeIssues } from '../core/validation.js';
import type { MiddlewareStack } from '../core/middleware.js';

/** One input request: its key in `inputRequests`, method, params and the round's signal. */
export interface InputRequestCall {
  readonly key: string;
  readonly method: string;
  readonly params: unknown;
  readonly signal: AbortSignal;
}

/** What answering needs of the Client. */
export interface InputAnswerHost {
  /** The bound (stateless) revision. */
  readonly revision: RevisionModule | undefined;
  /** The capabilities the Client declared. */
  readonly capabilities: CapabilityObject;
  /** The handler registered for the method, if any. */
  readonly handler: RequestHandler | undefined;
  /** Validate the handler's result against the method's result schema. */
  readonly checkResult: boolean;
  /** The Client's middlewares: its incoming ones run around the handler, as for a request of its own. */
  readonly middleware?: MiddlewareStack | undefined;
}

/** Runs the registered handler of an input request and returns its checked result. */
export async function answerInputRequest(call: InputRequestCall, host: InputAnswerHost): Promise<unknown> {
  const { key, method, params, signal } = call;
  const module = host.revision;
  const info = module?.methods[method];
  if (info === undefined || !info.embedded) {
    throw new SdkError('UNKNOWN_METHOD', `The server asked for input with ${method}, which is not an input request of ${module?.revision ?? 'this revision'}`);
  }
  const gate = info.capability;
  if (gate !== null && gate.holder === 'receiver' && !hasCapability(host.capabilities, gate.path)) {
    throw new SdkError('CAPABILITY_MISSING', `The server asked for input with ${method}, but this client did not declare capability ${describePath(gate.path)}`);
  }
  const handler = host.handler;
  if (handler === undefined) {
    throw new SdkError('CAPABILITY_MISSING', `The server asked for input with ${method}, and no handler is registered for it (setRequestHandler)`);
  }
  const context: RequestContext = {
    method,
    requestId: key,
    signal,
    _meta: isJsonObject(params) && isJsonObject(params._meta) ? params._meta : undefined,
    extra: undefined,
    sendNotification: async () => {
      throw new SdkError('WRONG_DIRECTION', `An input request handler (${method}) cannot send notifications in the stateless era`);
    },
    sendRequest: async () => {
      throw new SdkError('WRONG_DIRECTION', `An input request handler (${method}) cannot send requests in the stateless era`);
    },
    reportProgress: async () => undefined,
    log: async () => undefined,
  };
  const middleware = host.middleware;
  const given = params as Params | undefined;
  const result = (await (middleware?.incoming === undefined
    ? handler(given, context)
    : middleware.runIncoming(context, given, handler))) ?? {};
  const issues = host.checkResult && info.result !== null ? checkValue(info.result, result) : null;
  if (issues !== null) {
    throw new SdkError('INVALID_RESULT', `The ${method} handler returned an invalid result: ${describeIssues(issues, 'result')}`, { data: { issues } });
  }
  return result;
}
