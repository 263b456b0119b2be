/**
 * What a Client remembers of the tools a server listed: input schemas (for the stateless
 * transport's parameter headers) and output schemas (to check `tools/call` results, as the tools
 * page asks clients to and the official SDKs do).
 */
import { Method } from '../../generated/methods.js';
import { SdkError } from '../core/errors.js';
import { isJsonObject } from '../core/jsonrpc.js';
import type { JsonSchemaValidator } from '../json-schema/types.js';
import { headerParameters } from '../era/mcp-headers.js';
import { assertToolResult, defaultJsonSchemaValidator } from './client-helpers/tool-output.js';

/** Tools remembered at most; a listing beyond it forgets the oldest (servers list far fewer). */
export const MAX_REMEMBERED_TOOLS = 10_000;

interface RememberedTool {
  readonly name: string;
  readonly inputSchema: unknown;
  readonly outputSchema: Record<string, unknown> | undefined;
}

/** The tools one Client learned from `tools/list`, by name. */
export class ToolCatalog {
  private readonly tools = new Map<string, RememberedTool>();
  private readonly validator: JsonSchemaValidator | undefined;

  /** @param validateOutput false leaves results unchecked; a validator replaces the interpreting one. */
  constructor(validateOutput: boolean | JsonSchemaValidator = true) {
    this.validator = validateOutput === false ? undefined : validateOutput === true ? defaultJsonSchemaValidator() : validateOutput;
  }

  /** The input schema of a listed tool. */
  inputSchema(name: string): unknown {
    return this.tools.get(name)?.inputSchema;
  }

  /**
   * Remembers the tools of a `tools/list` result. Where the transport mirrors `x-mcp-header`
   * parameters, a tool whose annotations are invalid is dropped from the result and reported,
   * as the spec requires; the result returned is what the caller gets.
   */
  learn(result: Record<string, unknown>, mirrorsParameters: boolean, report: (error: Error) => void): Record<string, unknown> {
    const listed = result.tools as unknown[];
    const kept: unknown[] = [];
    for (const tool of listed) {
      if (!isJsonObject(tool) || typeof tool.name !== 'string') continue;
      if (mirrorsParameters) {
        const parsed = headerParameters(tool.inputSchema);
        if (!parsed.ok) {
          report(new SdkError('INVALID_RESULT', `Ignoring tool ${JSON.stringify(tool.name)}: ${parsed.reason}`, { data: { tool: tool.name } }));
          continue;
        }
      }
      this.remember({ name: tool.name, inputSchema: tool.inputSchema, outputSchema: isJsonObject(tool.outputSchema) ? tool.outputSchema : undefined });
      kept.push(tool);
    }
    return kept.length === listed.length ? result : { ...result, tools: kept };
  }

  /**
   * Checks a `tools/call` result against the listed tool's output schema; throws
   * SdkError('INVALID_RESULT') naming the tool and the fields when it does not conform. Results
   * of unlisted tools, error results and results of another shape (a task) pass unchecked.
   */
  check(params: unknown, result: unknown): void {
    if (this.validator === undefined || !isJsonObject(params) || typeof params.name !== 'string' || !isJsonObject(result)) return;
    const tool = this.tools.get(params.name);
    if (tool?.outputSchema === undefined || !Array.isArray(result.content)) return;
    assertToolResult(tool as never, result as never, this.validator);
  }

  /** Learns from or checks one result, by its method; returns what the caller gets. */
  observe(method: string, params: unknown, result: unknown, mirrorsParameters: boolean, report: (error: Error) => void): unknown {
    if (method === Method.ToolsList && isJsonObject(result) && Array.isArray(result.tools)) return this.learn(result, mirrorsParameters, report);
    if (method === Method.ToolsCall) this.check(params, result);
    return result;
  }

  private remember(tool: RememberedTool): void {
    // Re-inserting moves the name to the newest end, so the oldest listing is forgotten first.
    this.tools.delete(tool.name);
    this.tools.set(tool.name, tool);
    if (this.tools.size > MAX_REMEMBERED_TOOLS) this.tools.delete(this.tools.keys().next().value!);
  }
}
