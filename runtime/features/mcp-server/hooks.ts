import type * as Stateful from '../../../generated/protocol/stateful.js';
import type { McpContext } from './context.js';

/** The tool call a hook sees: the tool as listed and the arguments as the client sent them. */
export interface ToolCallInfo {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly tool: Stateful.Tool;
}

/** The resource read a hook sees. */
export interface ResourceReadInfo {
  readonly uri: string;
}

/** The prompt get a hook sees. */
export interface PromptGetInfo {
  readonly name: string;
  readonly arguments: Readonly<Record<string, string>>;
}

type Maybe<T> = void | undefined | T | Promise<void | undefined | T>;

/**
 * Typed hooks around McpServer's tool calls, resource reads and prompt gets (after the item was
 * found, so unknown names are refused as before). A `before` hook denies by returning a result
 * (an `isError` tool result, say), which is answered instead of running the handler, or by
 * throwing a ProtocolError, which is answered as a JSON-RPC error; returning nothing goes on.
 * An `after` hook sees the result and may return another one. `before` hooks run in the order
 * they were added, `after` hooks in the reverse order.
 *
 * @example
 * ```ts
 * import { McpServer, type McpServerHooks } from 'mcpgen';
 *
 * // Per-tool authorization: the scopes each tool needs, checked against the caller's token.
 * const needs: Record<string, readonly string[]> = { 'delete-note': ['notes:write'] };
 * const authorize: McpServerHooks = {
 *   beforeToolCall({ name }, context) {
 *     const granted = (context.extra?.authInfo as { scopes?: readonly string[] } | undefined)?.scopes ?? [];
 *     const missing = (needs[name] ?? []).filter((scope) => !granted.includes(scope));
 *     if (missing.length > 0) return { content: [{ type: 'text', text: `Forbidden: ${name} needs scope ${missing.join(' ')}` }], isError: true };
 *   },
 * };
 * const mcp = new McpServer({ name: 'notes', version: '1.0.0' }, { hooks: [authorize] });
 * ```
 */
export interface McpServerHooks {
  beforeToolCall?(call: ToolCallInfo, context: McpContext): Maybe<Stateful.CallToolResult>;
  afterToolCall?(call: ToolCallInfo, result: Stateful.CallToolResult, context: McpContext): Maybe<Stateful.CallToolResult>;
  beforeResourceRead?(read: ResourceReadInfo, context: McpContext): Maybe<Stateful.ReadResourceResult>;
  afterResourceRead?(read: ResourceReadInfo, result: Stateful.ReadResourceResult, context: McpContext): Maybe<Stateful.ReadResourceResult>;
  beforePromptGet?(get: PromptGetInfo, context: McpContext): Maybe<Stateful.GetPromptResult>;
  afterPromptGet?(get: PromptGetInfo, result: Stateful.GetPromptResult, context: McpContext): Maybe<Stateful.GetPromptResult>;
}

type Operation = 'ToolCall' | 'ResourceRead' | 'PromptGet';

/** The hooks of one McpServer; `empty` is what handlers check before building anything. */
export class HookSet {
  private readonly list: McpServerHooks[] = [];

  get empty(): boolean {
    return this.list.length === 0;
  }

  /** Adds hooks after those already added; returns the function that removes them. */
  add(hooks: McpServerHooks): () => void {
    this.list.push(hooks);
    return () => {
      const index = this.list.indexOf(hooks);
      if (index !== -1) this.list.splice(index, 1);
    };
  }

  toolCall(call: ToolCallInfo, context: McpContext, run: () => Promise<Stateful.CallToolResult>): Promise<Stateful.CallToolResult> {
    return this.around('ToolCall', call, context, run);
  }

  resourceRead(read: ResourceReadInfo, context: McpContext, run: () => Promise<Stateful.ReadResourceResult>): Promise<Stateful.ReadResourceResult> {
    return this.around('ResourceRead', read, context, run);
  }

  promptGet(get: PromptGetInfo, context: McpContext, run: () => Promise<Stateful.GetPromptResult>): Promise<Stateful.GetPromptResult> {
    return this.around('PromptGet', get, context, run);
  }

  private async around<R>(operation: Operation, info: unknown, context: McpContext, run: () => Promise<R>): Promise<R> {
    // A snapshot: hooks added or removed while this call runs apply from the next one.
    const hooks = [...this.list];
    for (const hook of hooks) {
      const before = hook[`before${operation}`] as ((info: unknown, context: McpContext) => Maybe<R>) | undefined;
      const answer = await before?.call(hook, info, context);
      if (answer !== undefined) return answer as R;
    }
    let result: R = await run();
    for (const hook of hooks.reverse()) {
      const after = hook[`after${operation}`] as ((info: unknown, result: R, context: McpContext) => Maybe<R>) | undefined;
      const replaced = await after?.call(hook, info, result, context);
      if (replaced !== undefined) result = replaced as R;
    }
    return result;
  }
}
