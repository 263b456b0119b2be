/**
 * How an MCP extension plugs into a Client or Server without the core knowing it: it declares
 * itself under `capabilities.extensions`, adds its methods (custom methods checked by its
 * generated validators), widens the results of the core methods it augments, and may take over
 * tool calls (to answer with a task handle, say, or refuse a client that lacks it).
 */
import type { ExtensionModule, RevisionModule } from '../core/contract.js';
import type { Protocol } from '../core/protocol.js';
import type { Params, RequestContext, RequestHandler } from '../core/request-context.js';

/**
 * What an extension sees of the Client or Server it is installed on: the engine (to register
 * its methods and handlers) and the endpoint's extensions. Narrower than Endpoint, so this
 * module does not depend on it; an extension that needs the role casts to Client or Server.
 */
export interface ExtensionEndpoint {
  /** The endpoint's JSON-RPC engine. */
  readonly protocol: Protocol;
  /** The extensions the endpoint speaks. */
  readonly extensions: readonly Extension[];
  /** The negotiated protocol revision, once settled. */
  readonly protocolVersion: string | undefined;
}

/** A tool as `tools/list` shows it, as far as an extension needs to know. */
export interface ExtensionTool {
  readonly name: string;
  readonly execution?: { readonly taskSupport?: string | undefined } | undefined;
  /** McpServer's `taskStart`: `'handler'` when the tool's handler starts its task itself. */
  readonly taskStart?: 'call' | 'handler' | undefined;
}

/** The `tools/call` an extension takes part in: its params and the Server serving it. */
export interface ExtensionToolCall {
  readonly params: Params;
  readonly endpoint: ExtensionEndpoint;
}

/**
 * An extension instance given to a Client or Server (`options.extensions`). One instance may
 * serve many endpoints (every Server an McpServer creates, one per HTTP request in the
 * stateless era), so per-endpoint state belongs in `install`.
 *
 * @example
 * ```ts
 * const audit: Extension = {
 *   id: 'com.example/audit',
 *   settings: {},
 *   wrapToolCall: async (tool, context, run) => {
 *     console.log(`tool ${tool.name} called`);
 *     return run(context);
 *   },
 * };
 * const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} }, extensions: [audit] });
 * ```
 */
export interface Extension {
  /** The extension identifier, its key in `capabilities.extensions`. */
  readonly id: string;
  /** What the endpoint declares under `capabilities.extensions[id]` (default `{}`). */
  readonly settings?: { readonly [key: string]: unknown };
  /**
   * Adds the extension's methods and handlers to a new endpoint. It runs while the endpoint is
   * being constructed: register methods and handlers here, send nothing.
   */
  install?(endpoint: ExtensionEndpoint): void;
  /**
   * Takes part in a `tools/call` that McpServer serves: call `run` to execute the tool (with
   * the given context or another one, now or later) or answer without it. Extensions are
   * chained in the order given, the first one outermost.
   */
  wrapToolCall?(tool: ExtensionTool, context: RequestContext, run: (context: RequestContext) => Promise<unknown>, call?: ExtensionToolCall): Promise<unknown>;
  /**
   * Wraps the handler the endpoint's user registers for incoming request `method` (a Client's
   * sampling handler, say), to answer some of those requests another way: 2025-11-25's
   * task-augmented requests with a task handle. Returns the handler to register instead
   * (`handler` itself to leave it alone). Extensions wrap in the order given, the first outermost.
   */
  wrapRequestHandler?(endpoint: ExtensionEndpoint, method: string, handler: RequestHandler): RequestHandler;
  /**
   * Called when a Server's stateful session settles on `revision` (its `initialize`, or the
   * session restored on another replica): may register handlers for methods of that revision,
   * and returns core capabilities to add to the `initialize` result (what the Server declares
   * wins), e.g. 2025-11-25's `tasks`.
   */
  negotiated?(endpoint: ExtensionEndpoint, revision: RevisionModule): { readonly [key: string]: unknown } | undefined;
}

/**
 * Tells `endpoint`'s extensions that its stateful session settled on `revision`, and returns
 * `capabilities` with the core capabilities they add (what `capabilities` has wins).
 */
export function negotiateExtensions<C extends { readonly [key: string]: unknown }>(capabilities: C, endpoint: ExtensionEndpoint, revision: RevisionModule): C {
  let added: Record<string, unknown> = {};
  for (const extension of endpoint.extensions) added = { ...added, ...extension.negotiated?.(endpoint, revision) };
  return Object.keys(added).length === 0 ? capabilities : { ...added, ...capabilities };
}

/** `capabilities` with every extension declared under `extensions` (what the caller declared wins). */
export function declareExtensions<C extends { readonly [key: string]: unknown }>(capabilities: C, extensions: readonly Extension[] | undefined): C {
  if (extensions === undefined || extensions.length === 0) return capabilities;
  const declared = (typeof capabilities.extensions === 'object' && capabilities.extensions !== null ? capabilities.extensions : {}) as Record<string, unknown>;
  const merged: Record<string, unknown> = {};
  for (const extension of extensions) merged[extension.id] = extension.settings ?? {};
  return { ...capabilities, extensions: { ...merged, ...declared } };
}

/** `handler` wrapped by the `wrapRequestHandler` hooks of `endpoint`'s extensions, the first outermost. */
export function wrapRequestHandler(endpoint: ExtensionEndpoint, method: string, handler: RequestHandler): RequestHandler {
  let wrapped = handler;
  for (const extension of [...endpoint.extensions].reverse()) wrapped = extension.wrapRequestHandler?.(endpoint, method, wrapped) ?? wrapped;
  return wrapped;
}

/** Runs a tool call through the `wrapToolCall` hooks of `extensions`, outermost first, ending in `run`. */
export function callToolThrough(extensions: readonly Extension[], tool: ExtensionTool, context: RequestContext, run: (context: RequestContext) => Promise<unknown>, call?: ExtensionToolCall): Promise<unknown> {
  const chain = extensions.filter((extension) => extension.wrapToolCall !== undefined);
  const step = (index: number, current: RequestContext): Promise<unknown> =>
    index === chain.length ? run(current) : chain[index]!.wrapToolCall!(tool, current, (next) => step(index + 1, next), call);
  return step(0, context);
}

/**
 * Registers a generated extension's methods on an endpoint's engine, each checked by its
 * generated validators, and widens the core methods' results it augments. Handlers are added
 * separately (`endpoint.protocol.setRequestHandler`).
 */
export function registerExtensionModule(endpoint: ExtensionEndpoint, module: ExtensionModule): void {
  for (const info of Object.values(module.methods)) {
    const spec = { params: info.params, direction: info.direction, paramsRequired: info.paramsRequired, extension: module.id };
    if (info.kind === 'request') endpoint.protocol.registerCustomRequest(info.method, { ...spec, result: info.result!, nameHeader: info.nameHeader !== null });
    else endpoint.protocol.registerCustomNotification(info.method, spec);
  }
  for (const [method, members] of Object.entries(module.resultAlternatives)) {
    for (const [resultType, validator] of Object.entries(members)) endpoint.protocol.addResultAlternative(method, resultType, validator);
  }
}
