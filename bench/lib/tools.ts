/** The tool every call scenario invokes. */
export const ECHO_TOOL = 'echo';
export const ECHO_DESCRIPTION = 'Echoes the text back';
/** The argument every call sends. */
export const ECHO_TEXT = 'hello, benchmark';

/** The names of a server with `count` tools: `echo`, then `tool-0001`… */
export function toolNames(count: number): string[] {
  const names = [ECHO_TOOL];
  for (let i = 1; i < count; i++) names.push(`tool-${String(i).padStart(4, '0')}`);
  return names;
}

/** A tool's description, the same for every implementation. */
export function describeTool(name: string): string {
  return name === ECHO_TOOL ? ECHO_DESCRIPTION : `Filler tool ${name}: echoes its text argument`;
}

/** JSON Schema of the one argument every tool takes. */
export function textInputSchema(): { type: 'object'; properties: { text: { type: 'string' } }; required: string[] } {
  return { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
}

/** The tool list as plain JSON, for the implementations that register JSON Schema directly. */
export function jsonTools(count: number): { name: string; description: string; inputSchema: ReturnType<typeof textInputSchema> }[] {
  return toolNames(count).map((name) => ({ name, description: describeTool(name), inputSchema: textInputSchema() }));
}

/** Resolves after `ms` on a timer: the awaited work of the load scenario's I/O-bound tool. */
export function ioWait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The echo tool's result for `text`. */
export function echoResult(text: string): { content: { type: 'text'; text: string }[] } {
  return { content: [{ type: 'text', text }] };
}

/** The text of the first text block of a tools/call result. */
export function resultText(result: unknown): string {
  const content = (result as { content?: unknown }).content;
  const first: unknown = Array.isArray(content) ? content[0] : undefined;
  if (typeof first === 'object' && first !== null && (first as { type?: unknown }).type === 'text') {
    const text = (first as { text?: unknown }).text;
    if (typeof text === 'string') return text;
  }
  throw new Error('tools/call result has no text content');
}
