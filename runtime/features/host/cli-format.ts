/** Human-readable output of the `mcpgen` CLI: aligned tables and tool or prompt content. */
import type { Method } from '../../../generated/methods.js';
import type * as Stateful from '../../../generated/protocol/stateful.js';
import type { ClientResult } from '../../peers/client-types.js';
import { ProtocolError } from '../../core/errors.js';
import type { CliIo } from './cli-auth.js';
import type { ConfigDiagnostic } from './config.js';
import type { ServerStatus } from './server-connection.js';
import { terminalSafe } from './terminal-text.js';

/** Longest cell text in tables; descriptions are cut to their first line and this length. */
const MAX_CELL = 72;

/** Aligns rows under a header; the last column is not padded. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows].map((row) => row.map((cell) => clip(cell)));
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column]?.length ?? 0)));
  return `${all.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd()).join('\n')}\n`;
}

/**
 * A tool's parameters in one cell: `name:type` for required ones, `[name:type]` for optional
 * ones, `a|b` for choices, in the schema's order (clipped like the other cells).
 */
export function toolParameters(schema: Stateful.Tool['inputSchema']): string {
  const required = new Set(schema.required ?? []);
  const words = Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const field = (property ?? {}) as { type?: unknown; enum?: unknown; items?: { type?: unknown } };
    const choices = Array.isArray(field.enum) && field.enum.length <= 4 ? field.enum.map(String).join('|') : undefined;
    const base = Array.isArray(field.type) ? field.type.join('|') : typeof field.type === 'string' ? field.type : undefined;
    const type = choices ?? (base === 'array' && typeof field.items?.type === 'string' ? `${field.items.type}[]` : base);
    const word = type === undefined ? name : `${name}:${type}`;
    return required.has(name) ? word : `[${word}]`;
  });
  return clip(words.join(' '));
}

/** The first line of `text` without control sequences, cut to `max` characters with an ellipsis. */
export function clip(text: string | undefined, max = MAX_CELL): string {
  const line = terminalSafe(text ?? '').split('\n', 1)[0]!.trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** One line about a server's status for the `servers` table. */
export function statusDetail(status: ServerStatus): string {
  if (status.state === 'connected') {
    const info = status.serverInfo === undefined ? '' : `${status.serverInfo.name} ${status.serverInfo.version}, `;
    return `${info}protocol ${status.protocolVersion ?? '?'}, ${status.connectMs ?? '?'} ms`;
  }
  return status.reason ?? '';
}

/** Content blocks as text: text as it is, other blocks as a bracketed summary. */
export function renderContent(blocks: readonly Stateful.ContentBlock[]): string {
  return blocks.map((block) => renderBlock(block)).join('\n');
}

function renderBlock(block: Stateful.ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[resource link ${block.uri}${block.name === '' ? '' : ` (${block.name})`}]`;
    case 'resource': {
      const resource = block.resource;
      return 'text' in resource ? `[resource ${resource.uri}]\n${resource.text}` : `[resource ${resource.uri}, ${resource.mimeType ?? 'binary'}, ${Math.floor((resource.blob.length * 3) / 4)} bytes]`;
    }
    default:
      return `[${(block as { type: string }).type}]`;
  }
}

/** A tool result for people: its content, or its structured content as JSON when it has none. */
export function renderToolResult(result: ClientResult<typeof Method.ToolsCall>): string {
  const text = renderContent(result.content ?? []);
  if (text !== '' || result.structuredContent === undefined) return text;
  return JSON.stringify(result.structuredContent, null, 2);
}

/** Resource contents for people: text as it is, blobs summarised. */
export function renderResourceContents(result: Stateful.ReadResourceResult): string {
  return result.contents
    .map((item) => ('text' in item ? item.text : `[${item.uri}, ${item.mimeType ?? 'binary'}, ${Math.floor((item.blob.length * 3) / 4)} bytes]`))
    .join('\n');
}

/** Prompt messages for people: `role:` then the content. */
export function renderPrompt(result: Stateful.GetPromptResult): string {
  const head = result.description === undefined ? '' : `${result.description}\n\n`;
  return head + result.messages.map((message) => `${message.role}: ${renderBlock(message.content)}`).join('\n');
}

/** The streams of `io`, with control sequences removed from everything written (see terminal-text.ts). */
export function terminalIo(io: CliIo): CliIo {
  return {
    ...io,
    stdout: { write: (text: string) => io.stdout.write(terminalSafe(text)), isTTY: io.stdout.isTTY },
    stderr: { write: (text: string) => io.stderr.write(terminalSafe(text)), isTTY: io.stderr.isTTY },
  };
}

/** A problem with a whole file (unreadable, not JSON, unsafe), as opposed to one entry. */
export function isFileFailure(problem: ConfigDiagnostic): boolean {
  return problem.severity === 'error' && problem.server === undefined;
}

/** A server listed as failed because its entry is malformed. */
export function isConfigurationFailure(status: { readonly state: string; readonly reason?: string | undefined }): boolean {
  return status.state === 'failed' && status.reason?.startsWith('invalid configuration') === true;
}

/** The JSON-RPC error behind a failed request, if the server answered with one. */
export function protocolErrorOf(error: unknown): ProtocolError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current instanceof ProtocolError) return current;
    current = current.cause;
  }
  return undefined;
}
