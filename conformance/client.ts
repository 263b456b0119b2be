/**
 * The conformance client: one program for every client scenario of @modelcontextprotocol/conformance,
 * built on mcpgen's Client and StreamableHttpClientTransport.
 *
 * The suite runs it as `<command> <server-url>` with the scenario's name in
 * MCP_CONFORMANCE_SCENARIO, the protocol revision to speak in MCP_CONFORMANCE_PROTOCOL_VERSION
 * and, for some scenarios, JSON details in MCP_CONFORMANCE_CONTEXT. It exits 0 when it did
 * what the scenario asks; the suite's mock server judges how well.
 *
 * Run by hand: MCP_CONFORMANCE_SCENARIO=tools_call node --import tsx conformance/client.ts http://127.0.0.1:3000/mcp
 */
import { Client, releasedRevisions, SdkError, StreamableHttpClientTransport, Stateful, statefulRevisions, type BothEras, type ClientResult, type HandledRequests } from '../runtime/index.js';
import { SkillsClient } from '../runtime/features/skills/index.js';
import { authProviderFor, isAuthScenario, runAuthScenario } from './auth-client.js';

/** Every scenario finishes well within this, or the client gives up (the suite would wait 30 s). */
const DEADLINE_MS = 20_000;
const REQUEST_TIMEOUT_MS = 10_000;

type Scenario = (client: Client) => Promise<void>;

class ScenarioFailure extends Error {}

/** Accepts a form elicitation, filling every field from its schema default (SEP-1034). */
function acceptWithDefaults(params: HandledRequests<BothEras>['elicitation/create']['params']): Stateful.ElicitResult {
  if (params.mode === 'url') {
    return { action: 'decline' };
  }
  const content: NonNullable<Stateful.ElicitResult['content']> = {};
  for (const [name, schema] of Object.entries(params.requestedSchema.properties)) {
    const fallback = 'default' in schema ? schema.default : undefined;
    if (fallback !== undefined) {
      content[name] = fallback as string | number | boolean | string[];
    }
  }
  return { action: 'accept', content };
}

async function listTools(client: Client): Promise<Stateful.Tool[]> {
  return client.listAll('tools/list', undefined, { timeout: REQUEST_TIMEOUT_MS });
}

async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ClientResult<'tools/call'>> {
  const result = await client.callTool({ name, arguments: args }, { timeout: REQUEST_TIMEOUT_MS });
  if (result.isError === true) {
    const first = result.content[0];
    throw new ScenarioFailure(`${name} returned an error: ${first?.type === 'text' ? first.text : JSON.stringify(result.content)}`);
  }
  return result;
}

function requireTool(tools: readonly Stateful.Tool[], name: string): Stateful.Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    throw new ScenarioFailure(`The server does not list the tool ${name} (it lists ${tools.map((t) => t.name).join(', ') || 'none'})`);
  }
  return tool;
}

/** Arguments for a tool from its input schema: each required property gets a value of its type. */
function argumentsFor(tool: Stateful.Tool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  for (const name of tool.inputSchema.required ?? []) {
    const type = properties[name]?.type;
    args[name] = type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : type === 'object' ? {} : type === 'array' ? [] : 'conformance';
  }
  return args;
}

/** The tool calls MCP_CONFORMANCE_CONTEXT asks for (`toolCalls: [{ name, arguments }]`), if any. */
function contextToolCalls(): Array<{ name: string; arguments: Record<string, unknown> }> {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { toolCalls?: Array<{ name: string; arguments?: Record<string, unknown> }> };
  return (context.toolCalls ?? []).map((call) => ({ name: call.name, arguments: call.arguments ?? {} }));
}

/** Lists every kind of primitive the server offers and uses each one once (tools, resources, prompts). */
async function exerciseEverything(client: Client): Promise<void> {
  const options = { timeout: REQUEST_TIMEOUT_MS };
  const capabilities = client.serverCapabilities ?? {};
  if (capabilities.tools !== undefined) {
    for (const tool of await listTools(client)) await client.callTool({ name: tool.name, arguments: argumentsFor(tool) }, options);
  }
  if (capabilities.resources !== undefined) {
    for (const resource of await client.listAll('resources/list', undefined, options)) await client.readResource({ uri: resource.uri }, options);
  }
  if (capabilities.prompts !== undefined) {
    for (const prompt of await client.listAll('prompts/list', undefined, options)) {
      const args = Object.fromEntries((prompt.arguments ?? []).filter((argument) => argument.required === true).map((argument) => [argument.name, 'conformance']));
      await client.getPrompt({ name: prompt.name, arguments: args }, options);
    }
  }
}

/** Connects and lists the tools when the server has any: what a scenario without its own entry gets. */
async function explore(client: Client): Promise<void> {
  if (client.serverCapabilities?.tools !== undefined) {
    await listTools(client);
  }
}

/**
 * A host's use of the skills extension: list the server's skills and, when `load`, load each one
 * and read its files, as a model acting on it would. Content that fails verification (size,
 * digest, frontmatter) is refused and the skill is not read further: the refusal is the
 * expected outcome of the tampering scenarios, so it ends the scenario without an error.
 */
function useSkills(load: boolean): Scenario {
  return async (client) => {
    const skills = new SkillsClient(client);
    const entries = await skills.list({ timeout: REQUEST_TIMEOUT_MS });
    if (!load) return;
    for (const entry of entries) {
      try {
        const loaded = await skills.load(entry, { timeout: REQUEST_TIMEOUT_MS });
        for (const file of loaded.files) if (file !== 'SKILL.md') await loaded.readFile(file, { timeout: REQUEST_TIMEOUT_MS });
      } catch (error) {
        if (!(error instanceof SdkError && error.code === 'VERIFICATION_FAILED')) throw error;
        process.stderr.write(`conformance-client: ${error.message}\n`);
      }
    }
  };
}

/** What the client does per scenario; any other scenario gets {@link explore}. */
const scenarios: Readonly<Record<string, Scenario>> = {
  // The handshake is the whole test (the mock server declares no capabilities).
  initialize: async () => undefined,
  tools_call: async (client) => {
    requireTool(await listTools(client), 'add_numbers');
    await callTool(client, 'add_numbers', { a: 5, b: 3 });
  },
  // The server elicits with defaults; the elicitation handler accepts them.
  'elicitation-sep1034-client-defaults': async (client) => {
    requireTool(await listTools(client), 'test_client_elicitation_defaults');
    await callTool(client, 'test_client_elicitation_defaults');
  },
  // The server closes the call's SSE stream; the transport must wait `retry` ms and resume with GET + Last-Event-ID.
  'sse-retry': async (client) => {
    requireTool(await listTools(client), 'test_reconnection');
    await callTool(client, 'test_reconnection');
  },
  // MRTR (2026-07-28): requestState echoed verbatim, omitted when absent, not leaked into an unrelated call
  // made between the rounds, and a result without resultType taken as complete.
  'sep-2322-client-request-state': async (client) => {
    await listTools(client);
    await Promise.all([callTool(client, 'test_mrtr_echo_state'), callTool(client, 'test_mrtr_unrelated')]);
    await callTool(client, 'test_mrtr_no_state');
    await callTool(client, 'test_mrtr_no_result_type');
  },
  // Mcp-Method / Mcp-Name on every kind of request (2026-07-28 Streamable HTTP).
  'http-standard-headers': exerciseEverything,
  // Mcp-Param-* headers from x-mcp-header parameters, with the arguments the scenario names.
  'http-custom-headers': async (client) => {
    await listTools(client);
    for (const call of contextToolCalls()) await callTool(client, call.name, call.arguments);
  },
  // Tools with invalid x-mcp-header annotations never reach the caller, so only the valid one is called.
  'http-invalid-tool-headers': exerciseEverything,
  // Round-trips the focal tool's inputSchema, showing which JSON Schema keywords survived the client.
  // SEP-2640: listing reads no skill file (no prefetch); loading verifies SKILL.md against the
  // listed entry and stops at a mismatch, so the supporting file of a tampered skill is never read.
  'sep-2640-client-no-prefetch': useSkills(false),
  'sep-2640-client-verify-digest': useSkills(true),
  'sep-2640-client-verify-size': useSkills(true),
  'sep-2640-client-verify-frontmatter': useSkills(true),
  'json-schema-2020-12-preservation': async (client) => {
    const tools = await listTools(client);
    const focal = requireTool(tools, 'json_schema_2020_12_tool');
    requireTool(tools, 'json_schema_echo');
    await callTool(client, 'json_schema_echo', { schema: focal.inputSchema });
  },
};

function createClient(protocolVersion: string): Client {
  const client = new Client(
    { name: 'mcpgen-conformance-client', version: '0.1.0' },
    {
      protocolVersion,
      // The suite's section names the revision to speak: no probing for another era, no cached choice.
      negotiation: 'pin',
      eraCache: false,
      capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } },
      defaultTimeoutMs: REQUEST_TIMEOUT_MS,
      onerror: (error) => process.stderr.write(`conformance-client: ${error.message}\n`),
    },
  );
  client.setRequestHandler('elicitation/create', (params) => acceptWithDefaults(params));
  client.setRequestHandler('sampling/createMessage', () => ({
    role: 'assistant',
    content: { type: 'text', text: 'A canned reply from the mcpgen conformance client' },
    model: 'mcpgen-conformance',
    stopReason: 'endTurn',
  }));
  client.setRequestHandler('roots/list', () => ({ roots: [] }));
  return client;
}

async function main(): Promise<number> {
  const url = process.argv[process.argv.length - 1];
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const requested = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? statefulRevisions[statefulRevisions.length - 1]!;
  if (url === undefined || !/^https?:\/\//.test(url)) {
    process.stderr.write('usage: client.ts <server-url> (scenario in MCP_CONFORMANCE_SCENARIO)\n');
    return 2;
  }
  if (!releasedRevisions.includes(requested as (typeof releasedRevisions)[number])) {
    process.stderr.write(`conformance-client: unknown protocol revision ${requested}\n`);
    return 1;
  }
  const client = createClient(requested);
  const auth = isAuthScenario(scenario) ? { authProvider: authProviderFor(scenario) } : {};
  await client.connect(new StreamableHttpClientTransport(url, auth), { timeout: REQUEST_TIMEOUT_MS });
  try {
    await (scenarios[scenario] ?? (isAuthScenario(scenario) ? (c: Client) => runAuthScenario(c, REQUEST_TIMEOUT_MS) : explore))(client);
  } finally {
    await client.close();
  }
  return 0;
}

const deadline = setTimeout(() => {
  process.stderr.write(`conformance-client: gave up after ${DEADLINE_MS} ms\n`);
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const cause = error instanceof Error && error.cause !== undefined ? ` (cause: ${String(error.cause)})` : '';
    process.stderr.write(`conformance-client: ${error instanceof Error ? error.message : String(error)}${cause}\n`);
    process.exit(1);
  },
);
