/**
 * SKILL.md frontmatter: the YAML block between the leading `---` lines, read with a small
 * parser for the subset skill authors write (block mappings and sequences, plain, quoted and
 * block scalars, flow sequences of scalars). Anchors, aliases, tags and multi-line quoted
 * scalars are refused rather than guessed at, and input size, line count and nesting depth are
 * bounded, so a hostile file costs little to reject.
 */
import { SdkError } from '../../core/errors.js';

/** Most bytes of frontmatter read (the YAML between the delimiters): 64 KiB. */
export const MAX_FRONTMATTER_CHARS = 65_536;
/** Deepest nesting of mappings and sequences. */
export const MAX_FRONTMATTER_DEPTH = 16;
/** Most lines of frontmatter. */
export const MAX_FRONTMATTER_LINES = 2_000;

/**
 * The frontmatter's YAML text and the body after it, or undefined when the file has none.
 *
 * @example
 * ```ts
 * import { splitFrontmatter } from 'mcpgen/skills';
 *
 * const split = splitFrontmatter('---\nname: notes\n---\n# Notes\n');
 * split?.yaml; // 'name: notes'
 * split?.body; // '# Notes\n'
 * ```
 */
export function splitFrontmatter(text: string): { readonly yaml: string; readonly body: string } | undefined {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const open = /^---[ \t]*\r?\n/.exec(source);
  if (open === null) return undefined;
  const close = /(?:^|\r?\n)---[ \t]*(?:\r?\n|$)/g;
  close.lastIndex = open[0].length - 1;
  const end = close.exec(source);
  if (end === null) return undefined;
  const yaml = source.slice(open[0].length, Math.max(open[0].length, end.index));
  return { yaml, body: source.slice(end.index + end[0].length) };
}

/**
 * The frontmatter of a SKILL.md as a JSON object. Throws SdkError('INVALID_ARGUMENT') naming the
 * line when there is no frontmatter, when it is not a mapping or uses YAML this parser refuses.
 *
 * @example
 * ```ts
 * import { parseFrontmatter } from 'mcpgen/skills';
 *
 * const frontmatter = parseFrontmatter('---\nname: notes\ndescription: Keep notes\nmetadata:\n  version: "1.0"\n---\nBody\n');
 * // { name: 'notes', description: 'Keep notes', metadata: { version: '1.0' } }
 * ```
 */
export function parseFrontmatter(text: string): Record<string, unknown> {
  const split = splitFrontmatter(text);
  if (split === undefined) throw invalid(0, 'SKILL.md does not begin with a --- delimited YAML frontmatter block');
  return parseYamlMapping(split.yaml);
}

/** Parses a YAML document of the supported subset whose root is a mapping (an empty one gives {}). */
export function parseYamlMapping(yaml: string): Record<string, unknown> {
  if (yaml.length > MAX_FRONTMATTER_CHARS) throw invalid(0, `frontmatter is longer than ${MAX_FRONTMATTER_CHARS} characters`);
  const lines = yaml.split(/\r?\n/);
  if (lines.length > MAX_FRONTMATTER_LINES) throw invalid(0, `frontmatter has more than ${MAX_FRONTMATTER_LINES} lines`);
  const parser = new Parser(lines);
  const start = parser.peek();
  if (start === undefined) return {};
  if (start.indent !== 0) throw invalid(start.no, 'the first key must not be indented');
  const value = parser.block(0, 0);
  const rest = parser.peek();
  if (rest !== undefined) throw invalid(rest.no, 'unexpected indentation');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(1, 'frontmatter must be a mapping of keys to values');
  return value as Record<string, unknown>;
}

function invalid(line: number, message: string): SdkError {
  return new SdkError('INVALID_ARGUMENT', line > 0 ? `frontmatter line ${line}: ${message}` : message);
}

interface Significant {
  readonly indent: number;
  readonly text: string;
  /** 1-based line number. */
  readonly no: number;
}

const SEQUENCE_ITEM = /^-(?:[ \t]|$)/;
const UNSUPPORTED_START = /^[&*!%@`|>]/;

class Parser {
  private pos = 0;

  constructor(private readonly lines: string[]) {}

  /** The next line with content (blank and comment lines skipped), without consuming it. */
  peek(): Significant | undefined {
    while (this.pos < this.lines.length) {
      const raw = this.lines[this.pos]!;
      const indent = raw.length - raw.trimStart().length;
      const text = raw.trim();
      if (text !== '' && !text.startsWith('#')) {
        if (raw.slice(0, indent).includes('\t')) throw invalid(this.pos + 1, 'tabs are not allowed in indentation');
        return { indent, text, no: this.pos + 1 };
      }
      this.pos++;
    }
    return undefined;
  }

  /** A mapping or a sequence whose entries sit at `indent`. */
  block(indent: number, depth: number): unknown {
    if (depth >= MAX_FRONTMATTER_DEPTH) throw invalid(this.peek()?.no ?? 0, `nesting is deeper than ${MAX_FRONTMATTER_DEPTH} levels`);
    const first = this.peek()!;
    return SEQUENCE_ITEM.test(first.text) ? this.sequence(indent, depth) : this.mapping(indent, depth);
  }

  private mapping(indent: number, depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    for (let line = this.peek(); line !== undefined && line.indent === indent && !SEQUENCE_ITEM.test(line.text); line = this.peek()) {
      const { key, rest } = splitKey(line);
      if (Object.hasOwn(result, key)) throw invalid(line.no, `duplicate key ${JSON.stringify(key)}`);
      this.pos++;
      Object.defineProperty(result, key, { value: this.value(rest, indent, depth, line.no), enumerable: true, writable: true, configurable: true });
    }
    return result;
  }

  private sequence(indent: number, depth: number): unknown[] {
    const items: unknown[] = [];
    for (let line = this.peek(); line !== undefined && line.indent === indent && SEQUENCE_ITEM.test(line.text); line = this.peek()) {
      const rest = line.text.slice(1).trimStart();
      if (rest !== '' && !rest.startsWith('#') && !/^["'[{]/.test(rest) && keyEnd(rest) !== -1) {
        // `- key: value` opens a mapping whose keys line up with `key`.
        const offset = line.text.length - rest.length;
        this.lines[this.pos] = ' '.repeat(indent + offset) + rest;
        items.push(this.block(indent + offset, depth + 1));
        continue;
      }
      this.pos++;
      items.push(this.value(rest, indent, depth, line.no));
    }
    return items;
  }

  /** The value after `key:` or `-` on a line of `indent`, possibly continued on later lines. */
  private value(rest: string, indent: number, depth: number, no: number): unknown {
    if (rest === '' || rest.startsWith('#')) {
      const next = this.peek();
      if (next !== undefined && (next.indent > indent || (next.indent === indent && SEQUENCE_ITEM.test(next.text) && !SEQUENCE_ITEM.test(this.lines[no - 1]!.trim())))) {
        return this.block(next.indent, depth + 1);
      }
      return null;
    }
    if (rest.startsWith('|') || rest.startsWith('>')) return this.blockScalar(rest, indent, no);
    if (UNSUPPORTED_START.test(rest)) throw invalid(no, `anchors, aliases, tags and directives are not supported (${rest.slice(0, 20)})`);
    if (rest.startsWith('"') || rest.startsWith("'")) return quoted(rest, no);
    if (rest.startsWith('[') || rest.startsWith('{')) return flow(rest, no);
    let text = plainPart(rest, no);
    // A plain scalar continues on more-indented lines, folded with spaces.
    for (let next = this.peek(); next !== undefined && next.indent > indent; next = this.peek()) {
      text += ' ' + plainPart(next.text, next.no);
      this.pos++;
    }
    return typed(text);
  }

  /** `|` (literal) or `>` (folded) with an optional chomping indicator. */
  private blockScalar(header: string, indent: number, no: number): string {
    const match = /^([|>])([+-]?)\s*(?:#.*)?$/.exec(header);
    if (match === null) throw invalid(no, `unsupported block scalar header ${JSON.stringify(header)}`);
    const raw: string[] = [];
    let contentIndent: number | undefined;
    while (this.pos < this.lines.length) {
      const line = this.lines[this.pos]!;
      const lineIndent = line.length - line.trimStart().length;
      if (line.trim() !== '') {
        if (lineIndent <= indent) break;
        contentIndent ??= lineIndent;
        if (lineIndent < contentIndent) throw invalid(this.pos + 1, 'block scalar line is less indented than its first line');
      }
      raw.push(line);
      this.pos++;
    }
    const lines = raw.map((line) => line.slice(contentIndent ?? 0));
    let trailing = 0;
    while (trailing < lines.length && lines[lines.length - 1 - trailing]!.trim() === '') trailing++;
    const content = lines.slice(0, lines.length - trailing);
    const body = match[1] === '|' ? content.join('\n') : fold(content);
    if (content.length === 0) return '';
    if (match[2] === '-') return body;
    if (match[2] === '+') return body + '\n'.repeat(trailing + 1);
    return body + '\n';
  }
}

/** Folded scalar lines: single breaks become spaces, blank lines stay line breaks. */
function fold(lines: readonly string[]): string {
  let out = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (i === 0) out = line;
    else if (line === '') out += '\n';
    else out += out.endsWith('\n') || lines[i - 1] === '' || /^\s/.test(line) ? line : ' ' + line;
  }
  return out;
}

/** Where a plain key ends (the index of its `:`), or -1. */
function keyEnd(text: string): number {
  const match = /:(?:[ \t]|$)/.exec(text);
  return match === null ? -1 : match.index;
}

function splitKey(line: Significant): { key: string; rest: string } {
  const text = line.text;
  if (text.startsWith('"') || text.startsWith("'")) {
    const close = closingQuote(text, line.no);
    const after = text.slice(close + 1);
    if (!/^:(?:[ \t]|$)/.test(after)) throw invalid(line.no, 'expected ":" after a quoted key');
    return { key: quoted(text.slice(0, close + 1), line.no), rest: after.slice(1).trim() };
  }
  const end = keyEnd(text);
  if (end <= 0) throw invalid(line.no, `expected "key: value", got ${JSON.stringify(text.slice(0, 40))}`);
  const key = text.slice(0, end).trim();
  if (UNSUPPORTED_START.test(key) || key.startsWith('?') || key.startsWith('[') || key.startsWith('{')) throw invalid(line.no, `unsupported key ${JSON.stringify(key)}`);
  return { key, rest: text.slice(end + 1).trim() };
}

/** The index of the quote closing the scalar `text` opens. */
function closingQuote(text: string, no: number): number {
  const quote = text[0]!;
  for (let i = 1; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  throw invalid(no, 'unterminated quoted scalar (multi-line quoted scalars are not supported)');
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '/': '/', '0': '\0', ' ': ' ', b: '\b', e: '\x1b' };

/** A quoted scalar on one line, anything after it being a comment. */
function quoted(text: string, no: number): string {
  const close = closingQuote(text, no);
  const after = text.slice(close + 1).trim();
  if (after !== '' && !after.startsWith('#')) throw invalid(no, `unexpected text after a quoted scalar: ${JSON.stringify(after.slice(0, 20))}`);
  const inner = text.slice(1, close);
  if (text[0] === "'") return inner.replaceAll("''", "'");
  return inner.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_all, escape: string) => {
    if (escape.length > 1) return String.fromCodePoint(Number.parseInt(escape.slice(1), 16));
    const mapped = ESCAPES[escape];
    if (mapped === undefined) throw invalid(no, `unknown escape \\${escape}`);
    return mapped;
  });
}

/** A flow sequence of scalars (`[a, "b"]`) or an empty flow mapping. */
function flow(text: string, no: number): unknown {
  const withoutComment = text.replace(/\s+#.*$/, '').trim();
  if (withoutComment === '{}') return {};
  if (!withoutComment.startsWith('[') || !withoutComment.endsWith(']')) throw invalid(no, 'only one-line flow sequences of scalars and {} are supported');
  const inner = withoutComment.slice(1, -1).trim();
  if (inner === '') return [];
  const items: unknown[] = [];
  let rest = inner;
  while (rest !== '') {
    let item: unknown;
    if (rest.startsWith('"') || rest.startsWith("'")) {
      const close = closingQuote(rest, no);
      item = quoted(rest.slice(0, close + 1), no);
      rest = rest.slice(close + 1).trim();
    } else {
      const comma = rest.indexOf(',');
      const part = (comma === -1 ? rest : rest.slice(0, comma)).trim();
      if (part === '' || /[[\]{}]/.test(part) || UNSUPPORTED_START.test(part)) throw invalid(no, `unsupported flow item ${JSON.stringify(part)}`);
      item = typed(part);
      rest = comma === -1 ? '' : rest.slice(comma);
    }
    items.push(item);
    if (rest.startsWith(',')) rest = rest.slice(1).trim();
    else if (rest !== '') throw invalid(no, 'expected "," between flow items');
  }
  return items;
}

/** A plain scalar's text on one line, its comment removed; refuses what YAML would read as structure. */
function plainPart(text: string, no: number): string {
  const value = text.replace(/[ \t]+#.*$/, '').trim();
  if (keyEnd(value) !== -1) throw invalid(no, `": " inside a plain scalar is a nested mapping YAML does not allow here; quote the value`);
  return value;
}

const INTEGER = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/** YAML 1.2 core schema resolution of a plain scalar. */
function typed(text: string): unknown {
  if (text === '' || text === '~' || /^(?:null|Null|NULL)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (INTEGER.test(text) || FLOAT.test(text)) {
    const number = Number(text);
    if (Number.isFinite(number)) return number;
  }
  if (/^0x[0-9a-fA-F]+$/.test(text)) return Number.parseInt(text.slice(2), 16);
  if (/^0o[0-7]+$/.test(text)) return Number.parseInt(text.slice(2), 8);
  return text;
}
