/**
 * Host-side sizing of tool results: a result is measured against a budget before a model sees
 * it. Small ones pass through untouched; a large one is cut to a prefix of its text with a
 * notice (`truncate`), or its large text goes to a file and the model gets a pointer to it
 * (`persist`). Images and audio are never written out (a file loses what makes them cheap for
 * a model to take in): they stay when they fit and are dropped with a notice otherwise.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Stateful from '../../../generated/protocol/stateful.js';

/** Default budget of one tool result: 100 000 characters (about 25 000 tokens). */
export const DEFAULT_RESULT_BUDGET_CHARS = 100_000;
/** Default cap on the files in the results folder: 100 (the oldest go first). */
export const DEFAULT_RESULT_MAX_FILES = 100;
/** Default cap on the bytes in the results folder: 256 MiB (the oldest files go first). */
export const DEFAULT_RESULT_MAX_DIRECTORY_BYTES = 256 * 1024 * 1024;
/** Default length of the preview that accompanies a persisted text: 2000 characters. */
export const DEFAULT_RESULT_PREVIEW_CHARS = 2_000;

/** How tool results are sized; see {@link ResultSizer}. */
export interface ResultSizingOptions {
  /**
   * The budget of one result, in characters: text counts its characters, images, audio and
   * blobs their base64 characters, `structuredContent` its JSON (default {@link DEFAULT_RESULT_BUDGET_CHARS}).
   */
  readonly maxChars?: number | undefined;
  /** What happens to a result over the budget (default `truncate`). */
  readonly strategy?: 'truncate' | 'persist' | undefined;
  /** Where `persist` writes, created with mode 0700 (default `$XDG_CACHE_HOME/mcpgen/tool-results`). */
  readonly directory?: string | undefined;
  /** Files the folder keeps at most (default {@link DEFAULT_RESULT_MAX_FILES}). */
  readonly maxFiles?: number | undefined;
  /** Bytes the folder keeps at most (default {@link DEFAULT_RESULT_MAX_DIRECTORY_BYTES}); a larger text is truncated instead. */
  readonly maxDirectoryBytes?: number | undefined;
  /** Characters of a persisted text shown in its notice (default {@link DEFAULT_RESULT_PREVIEW_CHARS}, at most the budget). */
  readonly previewChars?: number | undefined;
}

/** Which tool a result came from, for file names. */
export interface ResultOrigin {
  readonly server: string;
  readonly tool: string;
}

type Block = Stateful.ContentBlock;
type ToolResult = Stateful.CallToolResult;

/** Characters a pointer adds beside its preview (the sentence, the path, the link), roughly. */
const POINTER_OVERHEAD = 300;

/** The files this module writes: `<ms>-<random>-<server>-<tool>.<ext>`; nothing else in the folder is touched. */
const OWN_FILE = /^\d{13}-[0-9a-f]{8}-[\w.-]*\.(?:txt|json|md|csv|html|xml)$/;

/** The default results folder for an environment. */
export function resultsDirectory(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && xdg !== '' && path.isAbsolute(xdg) ? xdg : path.join(env.HOME ?? homedir(), '.cache');
  return path.join(base, 'mcpgen', 'tool-results');
}

/** The size of a content block against the budget. */
export function blockSize(block: Block): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'image':
    case 'audio':
      return block.data.length;
    case 'resource':
      return 'text' in block.resource ? block.resource.text.length : block.resource.blob.length;
    default:
      return JSON.stringify(block).length;
  }
}

/** The size of a whole result against the budget. */
export function resultSize(result: ToolResult): number {
  const structured = result.structuredContent === undefined ? 0 : JSON.stringify(result.structuredContent).length;
  return result.content.reduce((sum, block) => sum + blockSize(block), structured);
}

/**
 * Sizes tool results for a model (the connection manager's `resultSizing` option).
 *
 * @example
 * ```ts
 * import { ResultSizer } from 'mcpgen/host';
 *
 * const sizer = new ResultSizer({ maxChars: 20_000, strategy: 'persist', directory: '/tmp/tool-results' });
 * const result = await sizer.size({ content: [{ type: 'text', text: 'x'.repeat(50_000) }] }, { server: 'db', tool: 'dump' });
 * // result.content: a notice with the file's path, size and type, and a resource_link to it.
 * ```
 */
export class ResultSizer {
  readonly maxChars: number;
  readonly strategy: 'truncate' | 'persist';
  readonly directory: string;
  private readonly maxFiles: number;
  private readonly maxDirectoryBytes: number;
  private readonly previewChars: number;

  constructor(options: ResultSizingOptions = {}, env: Readonly<Record<string, string | undefined>> = process.env) {
    this.maxChars = Math.max(1, options.maxChars ?? DEFAULT_RESULT_BUDGET_CHARS);
    this.strategy = options.strategy ?? 'truncate';
    this.directory = options.directory ?? resultsDirectory(env);
    this.maxFiles = Math.max(1, options.maxFiles ?? DEFAULT_RESULT_MAX_FILES);
    this.maxDirectoryBytes = Math.max(1, options.maxDirectoryBytes ?? DEFAULT_RESULT_MAX_DIRECTORY_BYTES);
    this.previewChars = Math.min(this.maxChars, Math.max(0, options.previewChars ?? DEFAULT_RESULT_PREVIEW_CHARS));
  }

  /** The result as a model should get it: itself when within the budget, else cut or persisted. */
  async size(result: ToolResult, origin: ResultOrigin): Promise<ToolResult> {
    const total = resultSize(result);
    if (total <= this.maxChars) return result;
    const { structuredContent: _dropped, ...rest } = result;
    const notes: string[] = [];
    if (result.structuredContent !== undefined) notes.push(`structuredContent (${JSON.stringify(result.structuredContent).length} characters) was left out`);
    let content = [...result.content];
    const pointers = new Set<Block>();
    if (this.strategy === 'persist') content = await this.persist(content, origin, notes, pointers);
    content = this.fit(content, notes, pointers);
    const said = notes.join('; ');
    const notice = `[Tool result over the host's budget: ${total} characters against ${this.maxChars}. ${said.charAt(0).toUpperCase()}${said.slice(1)}.]`;
    return { ...rest, content: [...content, { type: 'text', text: notice }] };
  }

  /**
   * Replaces the largest texts by pointers to files until the rest fits; a text no larger than
   * its pointer would be stays. The pointers go into `pointers`, which `fit` never cuts.
   */
  private async persist(content: Block[], origin: ResultOrigin, notes: string[], pointers: Set<Block>): Promise<Block[]> {
    const out = [...content];
    const order = out.map((block, index) => ({ index, size: blockSize(block), text: textOf(block) }))
      .filter((entry) => entry.text !== undefined && entry.size > this.previewChars + POINTER_OVERHEAD)
      .sort((a, b) => b.size - a.size);
    let total = out.reduce((sum, block) => sum + blockSize(block), 0);
    for (const entry of order) {
      if (total <= this.maxChars) break;
      const block = out[entry.index]!;
      const mimeType = block.type === 'resource' ? block.resource.mimeType ?? 'text/plain' : 'text/plain';
      const saved = await this.write(entry.text!, mimeType, origin).catch((error: unknown) => error as Error);
      if (saved instanceof Error) {
        notes.push(`a text of ${entry.size} characters could not be saved (${saved.message}) and was truncated`);
        continue;
      }
      const preview = entry.text!.slice(0, this.previewChars);
      const pointer = `[The full text (${entry.size} characters, ${saved.bytes} bytes, ${mimeType}) is saved at ${saved.path}; read that file for all of it.${preview === '' ? '' : ` It begins:]\n${preview}`}${preview === '' ? '' : '\n[…]'}`;
      const replacement: Block[] = [
        { type: 'text', text: pointer },
        { type: 'resource_link', uri: pathToFileURL(saved.path).href, name: path.basename(saved.path), mimeType, size: saved.bytes },
      ];
      out.splice(entry.index, 1, ...replacement);
      for (const item of replacement) pointers.add(item);
      // Later entries sit after this one: their indices move by the extra block.
      for (const later of order) if (later.index > entry.index) later.index += replacement.length - 1;
      total -= entry.size;
      notes.push(`a text of ${entry.size} characters was saved to ${saved.path}`);
    }
    return out;
  }

  /** Keeps what fits in the budget, in order: a cut text keeps its prefix, media that do not fit are dropped; pointers always stay. */
  private fit(content: Block[], notes: string[], pointers: ReadonlySet<Block>): Block[] {
    let remaining = this.maxChars;
    let cut = 0;
    let textTotal = 0;
    const out: Block[] = [];
    for (const block of content) {
      if (pointers.has(block)) {
        out.push(block);
        continue;
      }
      const size = blockSize(block);
      const text = textOf(block);
      if (size <= remaining) {
        out.push(block);
        remaining -= size;
        continue;
      }
      if (text !== undefined) {
        textTotal += size;
        cut += size - remaining;
        if (remaining > 0) out.push(withText(block, prefix(text, remaining)));
        remaining = 0;
        continue;
      }
      const media = block.type === 'image' || block.type === 'audio';
      notes.push(`${describeDropped(block, size)} was left out${media && this.strategy === 'persist' ? ' (images and audio are never written to files)' : ''}`);
    }
    if (cut > 0) notes.push(`${cut} of ${textTotal} characters of text were cut`);
    return out;
  }

  /** Writes one text (mode 0600) after making room in the folder; rejects when it cannot fit at all. */
  private async write(text: string, mimeType: string, origin: ResultOrigin): Promise<{ path: string; bytes: number }> {
    const bytes = Buffer.byteLength(text);
    if (bytes > this.maxDirectoryBytes) throw new Error(`it is larger than the folder's ${this.maxDirectoryBytes}-byte cap`);
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const info = await lstat(this.directory);
    if (!info.isDirectory() || (typeof process.getuid === 'function' && info.uid !== process.getuid())) {
      throw new Error(`${this.directory} is not a folder of this user`);
    }
    await this.makeRoom(bytes);
    const name = `${Date.now()}-${randomBytes(4).toString('hex')}-${safeName(origin.server)}-${safeName(origin.tool)}.${extensionOf(mimeType)}`;
    const file = path.join(this.directory, name);
    await writeFile(file, text, { mode: 0o600, flag: 'wx' });
    return { path: file, bytes };
  }

  /** Removes this module's oldest files until one more file of `incoming` bytes keeps both caps. */
  private async makeRoom(incoming: number): Promise<void> {
    const files = await Promise.all((await readdir(this.directory)).filter((name) => OWN_FILE.test(name)).map(async (name) => {
      const file = path.join(this.directory, name);
      const info = await stat(file);
      return { file, bytes: info.size, mtime: info.mtimeMs, name };
    }));
    files.sort((a, b) => a.mtime - b.mtime || a.name.localeCompare(b.name));
    let count = files.length;
    let bytes = files.reduce((sum, entry) => sum + entry.bytes, 0);
    for (const entry of files) {
      if (count + 1 <= this.maxFiles && bytes + incoming <= this.maxDirectoryBytes) break;
      await unlink(entry.file).catch(() => undefined);
      count--;
      bytes -= entry.bytes;
    }
  }
}

/** The text of a text block or an embedded text resource. */
function textOf(block: Block): string | undefined {
  if (block.type === 'text') return block.text;
  if (block.type === 'resource' && 'text' in block.resource) return block.resource.text;
  return undefined;
}

function withText(block: Block, text: string): Block {
  if (block.type === 'resource' && 'text' in block.resource) return { ...block, resource: { ...block.resource, text } };
  return { ...(block as Extract<Block, { type: 'text' }>), text };
}

/** The first `length` characters, without splitting a surrogate pair. */
function prefix(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

function describeDropped(block: Block, size: number): string {
  if (block.type === 'image' || block.type === 'audio') return `an ${block.type === 'image' ? 'image' : 'audio clip'} (${block.mimeType}, ${Math.floor((size * 3) / 4)} bytes)`;
  if (block.type === 'resource') return `an embedded resource (${block.resource.uri}, ${size} characters)`;
  return `a ${block.type} block (${size} characters)`;
}

function safeName(text: string): string {
  return text.replace(/[^\w.-]+/g, '_').slice(0, 40);
}

function extensionOf(mimeType: string): string {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/markdown') return 'md';
  if (type === 'text/csv') return 'csv';
  if (type === 'text/html') return 'html';
  if (type.endsWith('/xml') || type.endsWith('+xml')) return 'xml';
  return 'txt';
}
