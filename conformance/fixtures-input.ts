/**
 * Fixtures of the 2026-07-28 server scenarios: tools and a prompt that ask the client for
 * input (multi round-trip requests, SEP-2322), capability and logging probes, list-change
 * triggers, and a tool with `x-mcp-header` parameters (SEP-2243). Each asks through `io.ask`,
 * which is a real server→client request in the stateful era and an input request in the
 * stateless one, so the same fixture serves both.
 */
import type { Stateful } from '../runtime/index.js';
import { textResult, type ToolFixture, type ToolIo } from './fixtures.js';

type JsonObject = Record<string, unknown>;

const noArguments: Stateful.Tool['inputSchema'] = { type: 'object', properties: {} };

function nameSchema(field: string): Stateful.ElicitRequestFormParams['requestedSchema'] {
  return { type: 'object', properties: { [field]: { type: 'string' } }, required: [field] };
}

/** The accepted content of an elicitation answer, or undefined. */
function accepted(answer: unknown): JsonObject | undefined {
  const result = answer as Stateful.ElicitResult;
  return result.action === 'accept' ? (result.content ?? {}) : undefined;
}

function sampledText(answer: unknown): string {
  const content = (answer as Stateful.CreateMessageResult).content;
  return !Array.isArray(content) && content.type === 'text' ? content.text : '(no text)';
}

function rootList(answer: unknown): string {
  return (answer as Stateful.ListRootsResult).roots.map((root) => root.uri).join(', ') || '(no roots)';
}

const askName = (io: ToolIo, key: string, message = 'What is your name?') =>
  io.ask('elicitation/create', { message, requestedSchema: nameSchema('name') }, key);

const askCapital = (io: ToolIo, key: string, prompt = 'What is the capital of France?', maxTokens = 100) =>
  io.ask('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens }, key);

/** Fixtures added for the stateless era, appended to the tool table. */
export const inputTools: readonly ToolFixture[] = [
  {
    tool: { name: 'test_input_required_result_elicitation', description: 'Asks for the user name (key user_name) and greets them', inputSchema: noArguments },
    call: async (_args, io) => textResult(`Hello, ${String(accepted(await askName(io, 'user_name'))?.name ?? 'stranger')}!`),
  },
  {
    tool: { name: 'test_input_required_result_sampling', description: 'Asks the client model a question (key capital_question)', inputSchema: noArguments },
    call: async (_args, io) => textResult(`The model said: ${sampledText(await askCapital(io, 'capital_question'))}`),
  },
  {
    tool: { name: 'test_input_required_result_list_roots', description: 'Asks for the client roots (key client_roots)', inputSchema: noArguments },
    call: async (_args, io) => textResult(`Roots: ${rootList(await io.ask('roots/list', {}, 'client_roots'))}`),
  },
  {
    tool: { name: 'test_input_required_result_request_state', description: 'Asks for a confirmation and keeps its own state across the round trip', inputSchema: noArguments },
    call: async (_args, io) => {
      io.requestState = { step: 'confirm' };
      const answer = accepted(await io.ask('elicitation/create', {
        message: 'Please confirm',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      }, 'confirm'));
      const state = io.requestState as { step?: unknown } | undefined;
      return textResult(state?.step === 'confirm' && answer?.ok === true ? 'Confirmed: state-ok' : 'Not confirmed');
    },
  },
  {
    tool: { name: 'test_input_required_result_multiple_inputs', description: 'Asks for a name, a greeting and the roots at once', inputSchema: noArguments },
    call: async (_args, io) => {
      const [name, greeting, roots] = await Promise.all([
        askName(io, 'user_name'),
        askCapital(io, 'greeting', 'Generate a greeting', 50),
        io.ask('roots/list', {}, 'client_roots'),
      ]);
      return textResult(`${sampledText(greeting)} ${String(accepted(name)?.name ?? 'stranger')} (${rootList(roots)})`);
    },
  },
  {
    tool: { name: 'test_input_required_result_multi_round', description: 'Asks two questions, one per round (step1, step2)', inputSchema: noArguments },
    call: async (_args, io) => {
      const name = accepted(await askName(io, 'step1', 'Step 1: What is your name?'))?.name;
      const color = accepted(await io.ask('elicitation/create', { message: 'Step 2: What is your favorite color?', requestedSchema: nameSchema('color') }, 'step2'))?.color;
      return textResult(`${String(name)} likes ${String(color)}`);
    },
  },
  {
    tool: { name: 'test_input_required_result_tampered_state', description: 'Asks for a confirmation; a tampered request state is refused', inputSchema: noArguments },
    call: async (_args, io) => {
      const answer = accepted(await io.ask('elicitation/create', {
        message: 'Please confirm',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      }, 'confirm'));
      return textResult(answer?.ok === true ? 'Confirmed' : 'Not confirmed');
    },
  },
  {
    tool: { name: 'test_input_required_result_capabilities', description: 'Asks only for what the client declared it can answer', inputSchema: noArguments },
    call: async (_args, io) => {
      const capabilities = io.clientCapabilities ?? {};
      const questions: Promise<unknown>[] = [];
      if (capabilities.elicitation !== undefined) questions.push(askName(io, 'user_name'));
      if (capabilities.sampling !== undefined) questions.push(askCapital(io, 'capital_question'));
      if (capabilities.roots !== undefined) questions.push(io.ask('roots/list', {}, 'client_roots'));
      const answers = await Promise.all(questions);
      return textResult(`Answered ${answers.length} question(s)`);
    },
  },
  {
    tool: { name: 'test_missing_capability', description: 'Needs the client sampling capability', inputSchema: noArguments },
    call: async (_args, io) => textResult(`The model said: ${sampledText(await askCapital(io, 'capital_question'))}`),
  },
  {
    tool: { name: 'test_streaming_elicitation', description: 'Asks for input; never as a request of its own in the stateless era', inputSchema: noArguments },
    call: async (_args, io) => textResult(`Hello, ${String(accepted(await askName(io, 'user_name'))?.name ?? 'stranger')}!`),
  },
  {
    tool: { name: 'test_logging_tool', description: 'Logs one message (sent only when the request asked for a log level)', inputSchema: noArguments },
    call: async (_args, io) => {
      await io.log('info', 'test_logging_tool ran');
      return textResult('Logged one message');
    },
  },
  {
    tool: { name: 'test_trigger_tool_change', description: 'Announces that the tool list changed', inputSchema: noArguments },
    call: async (_args, io) => {
      await io.toolsChanged();
      return textResult('Tool list change announced');
    },
  },
  {
    tool: {
      name: 'test_custom_headers',
      description: 'Mirrors its region parameter into the Mcp-Param-Region header (SEP-2243)',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', description: 'Region to run in', 'x-mcp-header': 'Region' } },
        required: ['region'],
      } as Stateful.Tool['inputSchema'],
    },
    call: (args) => textResult(`Region: ${String(args.region)}`),
  },
];

/** A prompt that asks for input before it renders (input required on a non-tool request). */
export const inputPrompt = {
  prompt: { name: 'test_input_required_result_prompt', description: 'Asks what context to use, then renders with it' } satisfies Stateful.Prompt,
  async get(io: Pick<ToolIo, 'ask'>): Promise<Stateful.GetPromptResult> {
    const answer = accepted(await io.ask('elicitation/create', {
      message: 'What context should the prompt use?',
      requestedSchema: nameSchema('context'),
    }, 'user_context'));
    return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${String(answer?.context ?? '(none)')}` } }] };
  },
};
