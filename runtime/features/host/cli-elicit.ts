/**
 * The CLI's answer to a server's form: on a terminal it asks for each field in turn (with its
 * type, choices and default), re-asking when an answer does not fit; without a terminal it says
 * what was asked and declines, so a script never hangs on a question nobody can see.
 */
import { createInterface } from 'node:readline';
import type { CliIo } from './cli-auth.js';
import { choicesOf, formFields, parseFormAnswer, type FormElicitationAnswer, type FormElicitationPrompt, type FormField } from './form-elicitation.js';

/** Attempts at one field before the whole form is cancelled. */
const MAX_ATTEMPTS = 3;

/** Asks the user the form's questions on `io` (stdin and stderr must be terminals), or declines. */
export async function askForm(io: CliIo, prompt: FormElicitationPrompt): Promise<FormElicitationAnswer> {
  io.stderr.write(`mcpgen: ${prompt.server} asks: ${prompt.message}\n`);
  const stdin = io.stdin;
  if (stdin === undefined || stdin.isTTY !== true || io.stderr.isTTY !== true) {
    io.stderr.write('mcpgen: not a terminal, so the request is declined\n');
    return { action: 'decline' };
  }
  io.stderr.write('  (an empty answer keeps the default or skips an optional field; !decline declines, !cancel or Ctrl-D cancels)\n');
  const reader = createInterface({ input: stdin, terminal: false });
  const lines = reader[Symbol.asyncIterator]();
  const onAbort = (): void => reader.close();
  prompt.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const content: Record<string, string | number | boolean | string[]> = {};
    for (const field of formFields(prompt.requestedSchema)) {
      let answered = false;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS && !answered; attempt++) {
        io.stderr.write(`  ${label(field)}: `);
        const next = await lines.next();
        if (next.done === true || prompt.signal.aborted) {
          io.stderr.write('\n');
          return { action: 'cancel' };
        }
        const text = String(next.value);
        if (text.trim() === '!decline') return { action: 'decline' };
        if (text.trim() === '!cancel') return { action: 'cancel' };
        const parsed = parseFormAnswer(field, text);
        if (!parsed.ok) {
          io.stderr.write(`  ${parsed.reason}\n`);
          continue;
        }
        if (parsed.value !== undefined) content[field.name] = parsed.value;
        answered = true;
      }
      if (!answered) {
        io.stderr.write(`mcpgen: no usable answer for ${field.name}, so the request is cancelled\n`);
        return { action: 'cancel' };
      }
    }
    return { action: 'accept', content };
  } finally {
    prompt.signal.removeEventListener('abort', onAbort);
    reader.close();
  }
}

/** `Title (type, one of a/b, default x)` with a `*` for a required field. */
function label(field: FormField): string {
  const schema = field.schema as { title?: string; description?: string; type?: string; default?: unknown; format?: string };
  const choices = choicesOf(field.schema);
  const details = [
    schema.type === 'array' ? 'comma-separated' : schema.format ?? schema.type,
    choices === undefined ? undefined : `${schema.type === 'array' ? 'any of' : 'one of'} ${choices.map((choice, index) => `${index + 1}) ${choice}`).join(' ')}`,
    schema.default === undefined ? undefined : `default ${JSON.stringify(schema.default)}`,
  ].filter((part) => part !== undefined);
  const name = schema.title ?? field.name;
  const description = schema.description === undefined ? '' : ` — ${schema.description}`;
  return `${name}${field.required ? '*' : ''}${description} (${details.join(', ')})`;
}
