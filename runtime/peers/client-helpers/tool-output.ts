import type { Method } from '../../../generated/methods.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import type { ValidationIssue } from '../../core/contract.js';
import { SdkError } from '../../core/errors.js';
import type { ClientResult } from '../client-types.js';
import { InterpretingJsonSchemaValidator } from '../../json-schema/interpreter.js';
import type { JsonSchemaCheck, JsonSchemaValidator } from '../../json-schema/types.js';

let sharedValidator: JsonSchemaValidator | undefined;

/**
 * The validator client helpers use when none is given: one interpreting validator per process.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { defaultJsonSchemaValidator } from 'mcpgen/advanced';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * const [tool] = await client.listAll('tools/list');
 * const args: unknown = JSON.parse('{"city":"Oslo"}'); // what the model produced
 * const check = defaultJsonSchemaValidator().compile(tool!.inputSchema);
 * if (!check(args).valid) console.warn('the model produced arguments the tool will refuse');
 * ```
 */
export function defaultJsonSchemaValidator(): JsonSchemaValidator {
  sharedValidator ??= new InterpretingJsonSchemaValidator();
  return sharedValidator;
}

// Compiled output schemas, per validator and per schema object, so a tool's schema is prepared once.
const compiled = new WeakMap<JsonSchemaValidator, WeakMap<object, JsonSchemaCheck>>();

function checkFor(validator: JsonSchemaValidator, schema: object): JsonSchemaCheck {
  let bySchema = compiled.get(validator);
  if (bySchema === undefined) {
    bySchema = new WeakMap();
    compiled.set(validator, bySchema);
  }
  let check = bySchema.get(schema);
  if (check === undefined) {
    check = validator.compile(schema as Record<string, unknown>);
    bySchema.set(schema, check);
  }
  return check;
}

/**
 * Checks a `tools/call` result against the tool's `outputSchema`, as the tools page asks
 * clients to: returns null when it conforms (or the tool has no output schema, or the result
 * is an error), otherwise the problems. A successful result without `structuredContent` from a
 * tool that declares an output schema is a problem too.
 *
 * @example
 * ```ts
 * import { checkToolResult, Client } from 'mcpgen';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * const [tool] = await client.listAll('tools/list');
 * if (tool === undefined) throw new Error('no tools');
 * const issues = checkToolResult(tool, await client.callTool({ name: tool.name, arguments: { city: 'Oslo' } }));
 * if (issues !== null) console.warn(`${tool.name} broke its outputSchema`, issues);
 * ```
 */
export function checkToolResult(tool: Pick<Stateful.Tool, 'name' | 'outputSchema'>, result: ClientResult<typeof Method.ToolsCall>, validator: JsonSchemaValidator = defaultJsonSchemaValidator()): ValidationIssue[] | null {
  if (tool.outputSchema === undefined || result.isError === true) return null;
  if (result.structuredContent === undefined) {
    return [{ instancePath: '', keyword: 'required', message: 'must have structuredContent (the tool declares an outputSchema)', params: { missingProperty: 'structuredContent' } }];
  }
  const outcome = checkFor(validator, tool.outputSchema)(result.structuredContent);
  return outcome.valid ? null : [...outcome.errors];
}

/**
 * Like {@link checkToolResult}, but throws SdkError('INVALID_RESULT') carrying the issues.
 *
 * @example
 * ```ts
 * import { assertToolResult, Client } from 'mcpgen';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * const [tool] = await client.listAll('tools/list');
 * if (tool === undefined) throw new Error('no tools');
 * const result = await client.callTool({ name: tool.name, arguments: { city: 'Oslo' } });
 * assertToolResult(tool, result); // throws when structuredContent breaks tool.outputSchema
 * ```
 */
export function assertToolResult(tool: Pick<Stateful.Tool, 'name' | 'outputSchema'>, result: ClientResult<typeof Method.ToolsCall>, validator?: JsonSchemaValidator): void {
  const issues = checkToolResult(tool, result, validator);
  if (issues === null) return;
  const detail = issues.map((issue) => `structuredContent${issue.instancePath}: ${issue.message}`).join('; ');
  throw new SdkError('INVALID_RESULT', `Tool ${tool.name} returned a result that does not match its outputSchema: ${detail}`, { data: { issues } });
}
