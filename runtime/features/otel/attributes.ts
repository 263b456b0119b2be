/**
 * What telemetry records about a call, as the OpenTelemetry semantic conventions for MCP name
 * it: span names, span and histogram attributes, and the outcome of a failed call.
 */
import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import { Method } from '../../../generated/methods.js';
import { ProtocolError, SdkError } from '../../core/errors.js';
import type { CallFacts } from '../../core/middleware.js';
import type { Params } from '../../core/request-context.js';
import { InputRequiredSignal } from '../../era/input-broker.js';

/** Methods whose span names and attributes carry their target. */
const TOOL_CALL = Method.ToolsCall;
const PROMPT_GET = Method.PromptsGet;
const RESOURCE_METHODS: ReadonlySet<string> = new Set([Method.ResourcesRead, Method.ResourcesSubscribe, Method.ResourcesUnsubscribe]);

const INTERNAL_ERROR = String(ErrorCodes.INTERNAL_ERROR);

/**
 * Span and metric attributes, as `@opentelemetry/api`'s `Attributes` accepts them; spelled here so
 * that these declarations name no optional peer.
 */
export type Attributes = Record<string, string | number | boolean | undefined>;

/** The conventions' span name: the method, and the tool or prompt when there is one. */
export function spanName(method: string, params: Params | undefined): string {
  const target = (method === TOOL_CALL || method === PROMPT_GET) && typeof params?.name === 'string' ? params.name : undefined;
  return target === undefined ? method : `${method} ${target}`;
}

/** The attributes of the histograms: the low-cardinality part of the span's (no session or request id). */
export function metricAttributes(span: Attributes): Attributes {
  const recorded: Attributes = { 'mcp.method.name': span['mcp.method.name'] };
  for (const name of OPTIONAL_METRIC_ATTRIBUTES) {
    const value = span[name];
    if (value !== undefined) recorded[name] = value;
  }
  return recorded;
}

const OPTIONAL_METRIC_ATTRIBUTES = ['error.type', 'gen_ai.tool.name', 'gen_ai.prompt.name', 'gen_ai.operation.name', 'rpc.response.status_code', 'mcp.protocol.version', 'network.transport'] as const;

/** The span's attributes of a call: method, revision, session, transport, and the target it names. */
export function attributesOf(call: CallFacts & { readonly method: string }, params: Params | undefined): Attributes {
  const attributes: Attributes = { 'mcp.method.name': call.method };
  if (call.revision !== undefined) attributes['mcp.protocol.version'] = call.revision;
  if (call.sessionId !== undefined) attributes['mcp.session.id'] = call.sessionId;
  if (call.networkTransport !== undefined) attributes['network.transport'] = call.networkTransport;
  const name = typeof params?.name === 'string' ? params.name : undefined;
  if (call.method === TOOL_CALL && name !== undefined) {
    attributes['gen_ai.tool.name'] = name;
    attributes['gen_ai.operation.name'] = 'execute_tool';
  } else if (call.method === PROMPT_GET && name !== undefined) {
    attributes['gen_ai.prompt.name'] = name;
  } else if (RESOURCE_METHODS.has(call.method) && typeof params?.uri === 'string') {
    attributes['mcp.resource.uri'] = params.uri;
  }
  return attributes;
}

/** How a call failed, as `error.type`, `rpc.response.status_code` and the span status say it. */
export interface Outcome {
  readonly type: string;
  readonly code?: string | undefined;
  readonly message?: string | undefined;
}

/** A tool result with `isError` is a failure the conventions name `tool_error`. */
export function resultOutcome(result: unknown): Outcome | undefined {
  return isObject(result) && result.isError === true ? { type: 'tool_error' } : undefined;
}

/** The outcome of a call that failed with `error` (undefined for the stateless era's question, which is no failure). */
export function errorOutcome(error: unknown, incoming: boolean): Outcome | undefined {
  // The handler asked the client a question: the round ends with input_required, as it should.
  if (error instanceof InputRequiredSignal) return undefined;
  if (error instanceof ProtocolError) return { type: String(error.code), code: String(error.code), message: error.message };
  if (error instanceof SdkError) return { type: error.code.toLowerCase(), message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  // A handler's exception reaches the peer as an internal error, whose code the conventions name.
  if (incoming) return { type: INTERNAL_ERROR, code: INTERNAL_ERROR, message };
  return { type: error instanceof Error ? error.name : '_OTHER', message };
}

/** True for a plain JSON object (not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
