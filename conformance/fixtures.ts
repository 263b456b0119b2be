/**
 * The fixtures the conformance suite's server scenarios call, as plain tables: tools, resources,
 * resource templates, prompts and completions, each with its behaviour. Nothing here knows how
 * it is served; `everything-server.ts` wires the tables to the low-level `Server`, and a
 * high-level server API can register the same tables later without touching them.
 *
 * Names, URIs and result shapes follow what the scenarios of @modelcontextprotocol/conformance
 * ask for (each scenario describes its "Server Implementation Requirements").
 */
import { ProtocolError } from '../runtime/index.js';
// Values of the newest revisions (error codes) come from their modules; the root entry exports their types only.
import { Stateful } from '../generated/latest.js';
import { RED_PIXEL_PNG_BASE64, SILENT_WAV_BASE64 } from './media.js';

type JsonObject = Record<string, unknown>;

/** What a tool may do while it runs: the per-call services of whatever server hosts it. */
export interface ToolIo {
  /** Aborted when the client cancels the call or the session ends. */
  readonly signal: AbortSignal;
  /** The negotiated protocol revision. */
  readonly protocolVersion: string | undefined;
  /** Sends a log message tied to this call (subject to the client's logging level). */
  log(level: Stateful.LoggingLevel, data: unknown): Promise<void>;
  /** Reports progress when the client asked for it with a progress token; otherwise a no-op. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Asks the client to sample; rejects when the client lacks the sampling capability. */
  createMessage(params: Stateful.CreateMessageRequestParams): Promise<Stateful.CreateMessageResult>;
  /** Asks the client for form input; rejects when the client lacks the elicitation capability. */
  elicit(params: Stateful.ElicitRequestFormParams): Promise<Stateful.ElicitResult>;
  /**
   * Closes the HTTP connection carrying this call's SSE stream so the client polls for the rest
   * (SEP-1699); resolves false where the transport cannot (stdio, older revisions, no event store).
   */
  closeStream(): Promise<boolean>;
  /**
   * Asks the client (elicitation, sampling, roots) in either era: a request of its own when
   * stateful, an input request under `key` of a multi round-trip request when stateless.
   */
  ask(method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list', params: JsonObject, key: string): Promise<unknown>;
  /** What the client declared it can do, for this request. */
  readonly clientCapabilities: Stateful.ClientCapabilities | undefined;
  /** Stateless era: data that comes back with the retry of a multi round-trip request. */
  requestState: unknown;
  /** Tells every connected client that the tool list changed. */
  toolsChanged(): Promise<void>;
}

/** A tool: its advertised definition and what calling it does. */
export interface ToolFixture {
  readonly tool: Stateful.Tool;
  call(args: JsonObject, io: ToolIo): Stateful.CallToolResult | Promise<Stateful.CallToolResult>;
}

/** A direct resource. */
export interface ResourceFixture {
  readonly resource: Stateful.Resource;
  read(): Stateful.ReadResourceResult;
}

/** A resource template with a single `{name}` variable per path segment. */
export interface TemplateFixture {
  readonly template: Stateful.ResourceTemplate;
  read(uri: string, variables: Readonly<Record<string, string>>): Stateful.ReadResourceResult;
  /** Suggestions for a template variable, for completion/complete. */
  complete?(variable: string, prefix: string): string[];
}

/** A prompt and how it renders. */
export interface PromptFixture {
  readonly prompt: Stateful.Prompt;
  get(args: Readonly<Record<string, string>>): Stateful.GetPromptResult;
  /** Suggestions for an argument, for completion/complete. */
  complete?(argument: string, prefix: string): string[];
}

/** Resolves after `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const text = (value: string): Stateful.TextContent => ({ type: 'text', text: value });
export const textResult = (value: string): Stateful.CallToolResult => ({ content: [text(value)] });
const noArguments: Stateful.Tool['inputSchema'] = { type: 'object', properties: {} };

function stringArguments(names: readonly string[], descriptions: Readonly<Record<string, string>>): Stateful.Tool['inputSchema'] {
  return {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string', description: descriptions[name] ?? name }])),
    required: [...names],
  };
}

/** Renders an elicitation outcome the way the scenarios describe it. */
function describeElicitation(prefix: string, result: Stateful.ElicitResult): string {
  return `${prefix}: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
}

/** The first text of a sampling result, whatever shape its content has. */
function sampledText(result: Stateful.CreateMessageResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  const first = blocks.find((block) => block.type === 'text');
  return first?.type === 'text' ? first.text : `[${blocks[0]?.type ?? 'empty'} content]`;
}

/**
 * The inputSchema of `json_schema_2020_12_tool`: JSON Schema 2020-12 keywords beyond the
 * schema's declared `inputSchema` shape ($defs, $anchor, composition, conditionals,
 * additionalProperties), which a server must pass through untouched (SEP-1613, SEP-2106).
 */
const JSON_SCHEMA_2020_12_INPUT = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as Stateful.Tool['inputSchema'];

export const tools: readonly ToolFixture[] = [
  {
    tool: { name: 'test_simple_text', description: 'Returns a fixed text block', inputSchema: noArguments },
    call: () => textResult('This is a simple text response for testing.'),
  },
  {
    tool: { name: 'test_image_content', description: 'Returns a 1x1 red PNG image', inputSchema: noArguments },
    call: () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: 'image/png' }] }),
  },
  {
    tool: { name: 'test_audio_content', description: 'Returns a short silent WAV clip', inputSchema: noArguments },
    call: () => ({ content: [{ type: 'audio', data: SILENT_WAV_BASE64, mimeType: 'audio/wav' }] }),
  },
  {
    tool: { name: 'test_embedded_resource', description: 'Returns an embedded text resource', inputSchema: noArguments },
    call: () => ({
      content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
    }),
  },
  {
    tool: { name: 'test_multiple_content_types', description: 'Returns text, image and resource content together', inputSchema: noArguments },
    call: () => ({
      content: [
        text('Multiple content types test:'),
        { type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) },
        },
      ],
    }),
  },
  {
    tool: { name: 'test_tool_with_logging', description: 'Sends three info log messages while it runs', inputSchema: noArguments },
    call: async (_args, io) => {
      await io.log('info', 'Tool execution started');
      await sleep(50, io.signal);
      await io.log('info', 'Tool processing data');
      await sleep(50, io.signal);
      await io.log('info', 'Tool execution completed');
      return textResult('Tool with logging executed successfully');
    },
  },
  {
    tool: { name: 'test_error_handling', description: 'Always fails, reporting the failure in the result', inputSchema: noArguments },
    call: () => ({ isError: true, content: [text('This tool intentionally returns an error for testing')] }),
  },
  {
    tool: { name: 'test_tool_with_progress', description: 'Reports progress 0, 50 and 100 of 100', inputSchema: noArguments },
    call: async (_args, io) => {
      await io.progress(0, 100);
      await sleep(50, io.signal);
      await io.progress(50, 100);
      await sleep(50, io.signal);
      await io.progress(100, 100);
      return textResult('Tool with progress executed successfully');
    },
  },
  {
    tool: {
      name: 'test_sampling',
      description: 'Asks the client to sample a reply to the prompt',
      inputSchema: stringArguments(['prompt'], { prompt: 'The prompt to send to the LLM' }),
    },
    call: async (args, io) => {
      const result = await io.createMessage({
        messages: [{ role: 'user', content: text(String(args.prompt ?? '')) }],
        maxTokens: 100,
      });
      return textResult(`LLM response: ${sampledText(result)}`);
    },
  },
  {
    tool: {
      name: 'test_elicitation',
      description: 'Asks the user for a username and an email address',
      inputSchema: stringArguments(['message'], { message: 'The message to show the user' }),
    },
    call: async (args, io) => {
      const result = await io.elicit({
        message: String(args.message ?? ''),
        requestedSchema: {
          type: 'object',
          properties: {
            username: { type: 'string', description: "User's response" },
            email: { type: 'string', description: "User's email address" },
          },
          required: ['username', 'email'],
        },
      });
      return textResult(describeElicitation('User response', result));
    },
  },
  {
    tool: { name: 'test_elicitation_sep1034_defaults', description: 'Elicits every primitive type with a default value (SEP-1034)', inputSchema: noArguments },
    call: async (_args, io) => {
      const result = await io.elicit({
        message: 'Confirm or edit the prefilled profile',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'Full name', default: 'John Doe' },
            age: { type: 'integer', description: 'Age in years', default: 30 },
            score: { type: 'number', description: 'Score', default: 95.5 },
            status: { type: 'string', description: 'Account status', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', description: 'Whether the account is verified', default: true },
          },
        },
      });
      return textResult(describeElicitation('Elicitation completed', result));
    },
  },
  {
    tool: { name: 'test_elicitation_sep1330_enums', description: 'Elicits all five enum schema variants (SEP-1330)', inputSchema: noArguments },
    call: async (_args, io) => {
      const result = await io.elicit({
        message: 'Pick from each kind of list',
        requestedSchema: {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
            titledSingle: {
              type: 'string',
              oneOf: [
                { const: 'value1', title: 'First Option' },
                { const: 'value2', title: 'Second Option' },
                { const: 'value3', title: 'Third Option' },
              ],
            },
            legacyEnum: { type: 'string', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
            untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: {
              type: 'array',
              items: {
                anyOf: [
                  { const: 'value1', title: 'First Choice' },
                  { const: 'value2', title: 'Second Choice' },
                  { const: 'value3', title: 'Third Choice' },
                ],
              },
            },
          },
        },
      });
      return textResult(describeElicitation('Elicitation completed', result));
    },
  },
  {
    tool: { name: 'json_schema_2020_12_tool', description: 'Tool with JSON Schema 2020-12 features', inputSchema: JSON_SCHEMA_2020_12_INPUT },
    call: (args) => textResult(`Received ${JSON.stringify(args)}`),
  },
  {
    tool: {
      name: 'test_reconnection',
      description: 'Closes its SSE stream mid-call, then answers; the client resumes with Last-Event-ID (SEP-1699)',
      inputSchema: noArguments,
    },
    call: async (_args, io) => {
      const closed = await io.closeStream();
      await sleep(100, io.signal);
      return textResult(closed ? 'Answered after the stream was closed for polling' : 'Answered on the original stream');
    },
  },
];

export const resources: readonly ResourceFixture[] = [
  {
    resource: { uri: 'test://static-text', name: 'static-text', description: 'A fixed text resource', mimeType: 'text/plain' },
    read: () => ({ contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }] }),
  },
  {
    resource: { uri: 'test://static-binary', name: 'static-binary', description: 'A fixed binary resource (PNG)', mimeType: 'image/png' },
    read: () => ({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: RED_PIXEL_PNG_BASE64 }] }),
  },
  {
    resource: { uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource clients may subscribe to', mimeType: 'text/plain' },
    read: () => ({ contents: [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content.' }] }),
  },
];

export const templates: readonly TemplateFixture[] = [
  {
    template: {
      uriTemplate: 'test://template/{id}/data',
      name: 'template-data',
      description: 'JSON data for an id',
      mimeType: 'application/json',
    },
    read: (uri, { id = '' }) => ({
      contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
    }),
    complete: (variable, prefix) => (variable === 'id' ? ['123', '456', '789'].filter((id) => id.startsWith(prefix)) : []),
  },
];

export const prompts: readonly PromptFixture[] = [
  {
    prompt: { name: 'test_simple_prompt', description: 'A prompt without arguments' },
    get: () => ({ messages: [{ role: 'user', content: text('This is a simple prompt for testing.') }] }),
  },
  {
    prompt: {
      name: 'test_prompt_with_arguments',
      description: 'A prompt with two required arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
    },
    get: ({ arg1 = '', arg2 = '' }) => ({
      messages: [{ role: 'user', content: text(`Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`) }],
    }),
    complete: (argument, prefix) => {
      const values: Readonly<Record<string, readonly string[]>> = {
        arg1: ['paris', 'park', 'party', 'test', 'testing'],
        arg2: ['world', 'word', 'work'],
      };
      return (values[argument] ?? []).filter((value) => value.startsWith(prefix));
    },
  },
  {
    prompt: {
      name: 'test_prompt_with_embedded_resource',
      description: 'A prompt embedding the resource it is given',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    },
    get: ({ resourceUri = '' }) => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: text('Please process the embedded resource above.') },
      ],
    }),
  },
  {
    prompt: { name: 'test_prompt_with_image', description: 'A prompt with an image' },
    get: () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: text('Please analyze the image above.') },
      ],
    }),
  },
];

/** Matches `uri` against a `{variable}` template; each variable spans one path segment. */
export function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const variable = /^\{([^}]+)\}$/.exec(part);
      if (variable !== null) {
        names.push(variable[1]!);
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (match === null) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
}

/**
 * Reads a direct resource or a templated one; unknown URIs fail with the revision's not-found
 * error (`codes` of the revision in use: invalid params from 2026-07-28 on).
 */
export function readResource(uri: string, codes: Readonly<Record<string, number>> = Stateful.ErrorCode): Stateful.ReadResourceResult {
  const direct = resources.find((fixture) => fixture.resource.uri === uri);
  if (direct !== undefined) return direct.read();
  for (const fixture of templates) {
    const variables = matchTemplate(fixture.template.uriTemplate, uri);
    if (variables !== undefined) return fixture.read(uri, variables);
  }
  throw new ProtocolError(codes.RESOURCE_NOT_FOUND ?? codes.INVALID_PARAMS!, 'Resource not found', { uri });
}

/** Answers completion/complete from the prompt and template tables. */
export function complete(params: Stateful.CompleteRequestParams): Stateful.CompleteResult {
  const { ref, argument } = params;
  let values: string[] = [];
  if (ref.type === 'ref/prompt') {
    values = prompts.find((fixture) => fixture.prompt.name === ref.name)?.complete?.(argument.name, argument.value) ?? [];
  } else {
    values = templates.find((fixture) => fixture.template.uriTemplate === ref.uri)?.complete?.(argument.name, argument.value) ?? [];
  }
  return { completion: { values: values.slice(0, 100), total: values.length, hasMore: false } };
}
