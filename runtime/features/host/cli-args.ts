/** Command-line parsing for the `mcpgen` CLI: options anywhere, `--` ends them. */

/** Exit codes of the CLI. */
export const EXIT = {
  OK: 0,
  /** A request failed or a tool reported an error (`isError`). */
  FAILED: 1,
  /** Bad command line or configuration. */
  USAGE: 2,
  /** A server could not be connected (failed, timed out, needs authorization). */
  UNAVAILABLE: 3,
} as const;

/** The parsed command line. */
export interface CliArgs {
  readonly command: string | undefined;
  readonly positionals: readonly string[];
  readonly json: boolean;
  readonly help: boolean;
  /** `login`: print the authorization URL instead of opening a browser. */
  readonly noBrowser: boolean;
  /** Use the project's and local servers for this run without asking (`--approve`). */
  readonly approve: boolean;
  readonly configFiles: readonly string[];
  readonly cwd: string | undefined;
  readonly stdio: string | undefined;
  readonly url: string | undefined;
  /** The one-off server's name (default `stdio` or `url`). */
  readonly name: string | undefined;
  readonly args: string | undefined;
  readonly connectTimeoutMs: number | undefined;
  readonly callTimeoutMs: number | undefined;
  /** The budget of a tool result in characters (`--max-result`). */
  readonly maxResultChars: number | undefined;
  /** What happens to a result over the budget (`--result-strategy`). */
  readonly resultStrategy: 'truncate' | 'persist' | undefined;
  /** Where `persist` writes (`--result-dir`). */
  readonly resultDirectory: string | undefined;
}

/** A command line the CLI cannot run. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const VALUE_OPTIONS = new Set(['--config', '--cwd', '--stdio', '--url', '--name', '--args', '--timeout', '--call-timeout', '--max-result', '--result-strategy', '--result-dir']);

/** Parses `argv` (without the node and script paths). */
export function parseArgs(argv: readonly string[]): CliArgs {
  const positionals: string[] = [];
  const values = new Map<string, string[]>();
  let json = false;
  let help = false;
  let noBrowser = false;
  let approve = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') {
      positionals.push(...argv.slice(index + 1));
      break;
    }
    if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') help = true;
    else if (arg === '--no-browser') noBrowser = true;
    else if (arg === '--approve') approve = true;
    else if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const option = equals === -1 ? arg : arg.slice(0, equals);
      if (!VALUE_OPTIONS.has(option)) throw new UsageError(`unknown option ${option}`);
      let value: string | undefined;
      if (equals !== -1) value = arg.slice(equals + 1);
      else {
        value = argv[index + 1];
        index += 1;
      }
      if (value === undefined) throw new UsageError(`${option} needs a value`);
      values.set(option, [...(values.get(option) ?? []), value]);
    } else positionals.push(arg);
  }
  const last = (option: string) => values.get(option)?.at(-1);
  const stdio = last('--stdio');
  const url = last('--url');
  if (stdio !== undefined && url !== undefined) throw new UsageError('use either --stdio or --url, not both');
  const strategy = last('--result-strategy');
  if (strategy !== undefined && strategy !== 'truncate' && strategy !== 'persist') throw new UsageError(`--result-strategy is truncate or persist, not ${JSON.stringify(strategy)}`);
  const maxResult = last('--max-result');
  const maxResultChars = maxResult === undefined ? undefined : Number(maxResult);
  if (maxResultChars !== undefined && !(Number.isInteger(maxResultChars) && maxResultChars > 0)) throw new UsageError(`--max-result needs a positive number of characters, not ${JSON.stringify(maxResult)}`);
  return {
    command: positionals[0],
    positionals: positionals.slice(1),
    json,
    help,
    noBrowser,
    approve,
    configFiles: values.get('--config') ?? [],
    cwd: last('--cwd'),
    stdio,
    url,
    name: last('--name'),
    args: last('--args'),
    connectTimeoutMs: milliseconds(last('--timeout'), '--timeout'),
    callTimeoutMs: milliseconds(last('--call-timeout'), '--call-timeout'),
    maxResultChars,
    resultStrategy: strategy,
    resultDirectory: last('--result-dir'),
  };
}

function milliseconds(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`${option} needs a positive number of milliseconds, not ${JSON.stringify(text)}`);
  return value;
}

/**
 * Splits a `--stdio` command line into words: whitespace separates, single and double quotes
 * group, a backslash escapes the next character (outside single quotes).
 *
 * @example
 * ```ts
 * import { splitCommandLine } from 'mcpgen/host';
 *
 * splitCommandLine(`npx -y "@scope/server" --root '/my files'`); // ['npx', '-y', '@scope/server', '--root', '/my files']
 * ```
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && index + 1 < line.length) current += line[++index];
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (char === '\\' && index + 1 < line.length) {
      current += line[++index];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new UsageError(`unterminated ${quote} in ${JSON.stringify(line)}`);
  if (inWord) words.push(current);
  return words;
}

/**
 * Builds tool arguments from `key=value` words. A value is kept as a string when the tool's
 * input schema says the property is a string, and read as JSON otherwise when it parses
 * (`count=3`, `flags=["a"]`), falling back to the string.
 *
 * @example
 * ```ts
 * import { keyValueArguments } from 'mcpgen/host';
 *
 * keyValueArguments(['zip=01234', 'count=3'], { properties: { zip: { type: 'string' } } }); // { zip: '01234', count: 3 }
 * ```
 */
export function keyValueArguments(words: readonly string[], inputSchema?: { properties?: Record<string, unknown> }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const word of words) {
    const equals = word.indexOf('=');
    if (equals <= 0) throw new UsageError(`expected key=value, not ${JSON.stringify(word)}`);
    const key = word.slice(0, equals);
    const text = word.slice(equals + 1);
    const type = (inputSchema?.properties?.[key] as { type?: unknown } | undefined)?.type;
    if (type === 'string' || (Array.isArray(type) && type.includes('string') && type.length === 1)) out[key] = text;
    else {
      try {
        out[key] = JSON.parse(text);
      } catch {
        out[key] = text;
      }
    }
  }
  return out;
}
