// SDK-independent helpers shared by the v1 and v2 peer clients: argv/env handling,
// result extraction and the one-line JSON report.

/** The summary line a peer client prints on success. */
export interface PeerSummary {
  protocolVersion: string | null;
  serverInfo: { name: string; version: string } | null;
  tools: string[];
  echo: string;
  add: string;
  resource: string;
  prompt: string;
  /** Text returned by the `sample` tool, or null when the server has no such tool. */
  sample: string | null;
  /** Parsed JSON text of the `elicit` tool (`{action, content}`), or null when absent. */
  elicit: unknown;
  /** Parsed JSON text of the `roots` tool (an array of URIs), or null when absent. */
  roots: unknown;
}

/** Fixed answers the peer clients give to server-initiated requests. */
export const SAMPLING_RESULT = {
  role: 'assistant',
  content: { type: 'text', text: 'sampled' },
  model: 'peer-model',
} as const;
export const ELICITATION_RESULT = { action: 'accept', content: { name: 'Ada', age: 36 } } as const;
export const ROOTS_RESULT = { roots: [{ uri: 'file:///tmp/peer-root', name: 'root' }] };

/** The server command line: everything after the script path. */
export function serverCommand(argv: readonly string[]): { command: string; args: string[] } {
  const [command, ...args] = argv.slice(2);
  if (command === undefined) {
    throw new Error('usage: <client> <server-command> [server-args...]');
  }
  return { command, args };
}

/** The whole parent environment (string values only), passed on to the spawned server. */
export function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** The protocol version requested through PEER_PROTOCOL_VERSION, if any. */
export function requestedProtocolVersion(): string | undefined {
  const value = process.env.PEER_PROTOCOL_VERSION?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Text of the first text block in a content array. */
function firstText(content: unknown, what: string): string {
  if (Array.isArray(content)) {
    for (const block of content) {
      if (isRecord(block) && block.type === 'text' && typeof block.text === 'string') return block.text;
    }
  }
  throw new Error(`${what}: no text content`);
}

/** Text of a tools/call result; a result with isError set becomes a thrown error. */
export function toolText(result: unknown, tool: string): string {
  if (!isRecord(result)) throw new Error(`${tool}: malformed result`);
  const content = result.content;
  if (result.isError === true) {
    let detail = 'no detail';
    try {
      detail = firstText(content, tool);
    } catch {
      // keep the generic detail
    }
    throw new Error(`${tool}: tool returned an error: ${detail}`);
  }
  return firstText(content, tool);
}

/** Text of the first resources/read content. */
export function resourceText(result: unknown, uri: string): string {
  const contents = isRecord(result) ? result.contents : undefined;
  const first: unknown = Array.isArray(contents) ? contents[0] : undefined;
  if (isRecord(first) && typeof first.text === 'string') return first.text;
  throw new Error(`${uri}: no text contents`);
}

/** Text of the first prompts/get message. */
export function promptText(result: unknown, name: string): string {
  const messages = isRecord(result) ? result.messages : undefined;
  const first: unknown = Array.isArray(messages) ? messages[0] : undefined;
  const content = isRecord(first) ? first.content : undefined;
  return firstText(content === undefined ? undefined : [content], `prompt ${name}`);
}

/** JSON-parses a tool's text, keeping the raw text if it is not JSON. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function printAndExit(value: unknown, code: number): void {
  process.stdout.write(`${JSON.stringify(value)}\n`, () => process.exit(code));
}

/**
 * Runs a peer client body: prints its summary as one JSON line and exits 0, or prints
 * `{error}` and exits 1 on failure or after PEER_TIMEOUT_MS (default 20 000 ms).
 */
export function runPeerClient(body: () => Promise<PeerSummary>): void {
  const timeoutMs = Number(process.env.PEER_TIMEOUT_MS ?? '20000');
  let finished = false;
  const finish = (value: unknown, code: number): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    printAndExit(value, code);
  };
  const timer = setTimeout(() => finish({ error: `timed out after ${timeoutMs} ms` }, 1), timeoutMs);
  body().then(
    (summary) => finish(summary, 0),
    (error: unknown) => finish({ error: error instanceof Error ? error.message : String(error) }, 1),
  );
}
