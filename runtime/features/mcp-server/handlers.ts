import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import { messageOf, ProtocolError } from '../../core/errors.js';
import type { HandlerFailure } from '../../core/middleware.js';
import { InputRequiredSignal } from '../../era/input-broker.js';
import type { HookSet } from './hooks.js';
import type { Params, RequestContext } from '../../core/request-context.js';
import type { Server } from '../../peers/server.js';
import { complete } from './completion.js';
import { McpContext, type SchemaCache } from './context.js';
import { paginate, type Page } from './pagination.js';
import { getPrompt, type PromptEntry } from './prompts.js';
import type { Registry } from './registry.js';
import { listedResources, locate, resourceNotFound, type ResourceEntry, type TemplateEntry } from './resources.js';
import type { McpSession } from './session.js';
import type { CacheHint } from '../../era/subscriptions.js';
import { callTool, type ToolEntry } from './tools.js';
import { callToolThrough } from '../../peers/extension.js';
import { Method } from '../../../generated/methods.js';

/** What the per-session handlers read from the McpServer. */
export interface ServerHost extends SchemaCache {
  readonly tools: Registry<ToolEntry>;
  readonly resources: Registry<ResourceEntry>;
  readonly templates: Registry<TemplateEntry>;
  readonly prompts: Registry<PromptEntry>;
  readonly pageSize: number;
  /** Longest URI matched against resource templates (`McpServerOptions.maxUriLength`). */
  readonly maxUriLength: number;
  /** The hooks around tool calls, resource reads and prompt gets. */
  readonly hooks: HookSet;
  /** The cache hint of a list or read result in the stateless era, per kind. */
  cacheHint(kind: CacheKind): CacheHint;
}

/** The results that carry a cache hint in the stateless era. */
export type CacheKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates' | 'resourceRead';

/** `{ [field]: items, nextCursor? }`, the shape of every list result. */
function pageResult<F extends string, T>(field: F, page: Page<T>): { [K in F]: T[] } & { nextCursor?: string } {
  const result = { [field]: page.items } as { [K in F]: T[] } & { nextCursor?: string };
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
  return result;
}

/**
 * Installs the request handlers of every feature `capabilities` declares on one session's
 * Server. Handlers look registrations up at request time, so later registrations, updates and
 * removals apply to connected sessions at once.
 */
export function installHandlers(server: Server, session: McpSession, host: ServerHost): void {
  const capabilities = session.capabilities;
  const contextOf = (request: RequestContext): McpContext => new McpContext(session, request, host);
  // Stateless-era results carry cache hints; earlier revisions have no such fields.
  const cached = <R extends object>(kind: CacheKind, result: R): R => (server.era === 'stateless' ? { ...result, ...host.cacheHint(kind) } : result);
  const notFound = (uri: string) => resourceNotFound(uri, server.protocol.revision?.errorCodes);
  if (capabilities.tools !== undefined) {
    server.setRequestHandler(Method.ToolsList, (params) => {
      const tools = host.tools.visible(session).map(([, entry]) => entry.definition);
      // A stable order lets clients and model prompt caches reuse the list (2026-07-28 asks for it).
      if (server.era === 'stateless') tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return cached('tools', pageResult('tools', paginate(tools, (tool) => tool.name, params?.cursor, host.pageSize)));
    });
    server.setRequestHandler(Method.ToolsCall, (params, request) => {
      const entry = host.tools.find(params.name, session);
      // An unknown tool is a protocol error (the tools page's own example uses -32602).
      if (entry === undefined) throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `Unknown tool: ${params.name}`);
      // Extensions (tasks) may run the call another way, or later.
      const tool = entry.config.taskStart === undefined ? entry.definition : { ...entry.definition, taskStart: entry.config.taskStart };
      const run = (context: RequestContext): Promise<Stateful.CallToolResult> => {
        const mcpContext = contextOf(context);
        if (host.hooks.empty) return callTool(entry, params, mcpContext);
        const call = { name: entry.name, arguments: params.arguments ?? {}, tool: entry.definition };
        return host.hooks.toolCall(call, mcpContext, () => callTool(entry, params, mcpContext));
      };
      return callToolThrough(server.extensions, tool, request, run, { params: params as unknown as Params, endpoint: server }) as Promise<Stateful.CallToolResult>;
    });
  }
  if (capabilities.resources !== undefined) {
    server.setRequestHandler(Method.ResourcesList, async (params, request) => {
      const resources = await listedResources(host.resources, host.templates, contextOf(request));
      return cached('resources', pageResult('resources', paginate(resources, (resource) => resource.uri, params?.cursor, host.pageSize)));
    });
    server.setRequestHandler(Method.ResourcesTemplatesList, (params) => {
      const templates = [...host.templates.each(session)].map((entry) => entry.definition);
      return cached('resourceTemplates', pageResult('resourceTemplates', paginate(templates, (template) => template.uriTemplate, params?.cursor, host.pageSize)));
    });
    server.setRequestHandler(Method.ResourcesRead, async (params, request) => {
      const read = locate(params.uri, host.resources, host.templates, session, host.maxUriLength);
      if (read === undefined) throw notFound(params.uri);
      const context = contextOf(request);
      let result: Stateful.ReadResourceResult;
      try {
        result = await (host.hooks.empty ? read(context) : host.hooks.resourceRead({ uri: params.uri }, context, async () => read(context)));
      } catch (error) {
        throw failure(server, error, context, { method: Method.ResourcesRead, requestId: request.requestId, resource: params.uri });
      }
      return server.era === 'stateless' ? cached('resourceRead', result) : result;
    });
    if (capabilities.resources.subscribe === true) {
      server.setRequestHandler(Method.ResourcesSubscribe, (params) => {
        if (locate(params.uri, host.resources, host.templates, session, host.maxUriLength) === undefined) throw notFound(params.uri);
        session.subscriptions.add(params.uri);
        return {};
      });
      server.setRequestHandler(Method.ResourcesUnsubscribe, (params) => {
        session.subscriptions.delete(params.uri);
        return {};
      });
    }
  }
  if (capabilities.prompts !== undefined) {
    server.setRequestHandler(Method.PromptsList, (params) => {
      const prompts = host.prompts.visible(session).map(([, entry]) => entry.definition);
      return cached('prompts', pageResult('prompts', paginate(prompts, (prompt) => prompt.name, params?.cursor, host.pageSize)));
    });
    server.setRequestHandler(Method.PromptsGet, async (params, request) => {
      const entry = host.prompts.find(params.name, session);
      if (entry === undefined) throw new ProtocolError(ErrorCodes.INVALID_PARAMS, `Unknown prompt: ${params.name}`);
      const context = contextOf(request);
      try {
        return await (host.hooks.empty ? getPrompt(entry, params, context) : host.hooks.promptGet({ name: entry.name, arguments: params.arguments ?? {} }, context, () => getPrompt(entry, params, context)));
      } catch (error) {
        throw failure(server, error, context, { method: Method.PromptsGet, requestId: request.requestId, prompt: entry.name });
      }
    });
  }
  if (capabilities.completions !== undefined) {
    server.setRequestHandler(Method.CompletionComplete, (params) =>
      complete(params, session, {
        prompt: (name) => host.prompts.find(name, session),
        template: (uriTemplate) => host.templates.find(uriTemplate, session),
      }),
    );
  }
}

/**
 * What a resource or prompt callback (or a hook around it) threw, as the handler rethrows it:
 * a ProtocolError (the callback's chosen answer), a question of the stateless era or a
 * cancellation as it is; anything else (a bug) is reported with the resource or prompt it
 * served, then answered as the internal error the dispatcher would answer, so that it is
 * reported once.
 */
function failure(server: Server, error: unknown, context: McpContext, what: Omit<HandlerFailure, 'error'>): unknown {
  if (error instanceof ProtocolError || error instanceof InputRequiredSignal || context.signal.aborted) return error;
  server.protocol.reportHandlerFailure({ ...what, error });
  return new ProtocolError(ErrorCodes.INTERNAL_ERROR, messageOf(error));
}
