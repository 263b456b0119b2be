/**
 * Which project and local `.mcp.json` entries the user has approved. A project file arrives
 * with a repository (or sits in a shared directory), so its `command` runs and its `url` gets
 * the user's expanded variables only after the user has seen the entry and said yes. Approvals
 * are remembered per file and per hash of the entry as written: a changed entry is asked about
 * again.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { readConfigFile } from './config-file.js';
import { trustFilePath } from './config-paths.js';
import { isPlainObject } from './config.js';
import { terminalSafeJson } from './terminal-text.js';

export { trustFilePath } from './config-paths.js';

/** A project or local entry waiting for the user's approval; nothing in it is expanded. */
export interface ApprovalRequest {
  readonly name: string;
  readonly scope: 'project' | 'local';
  /** The file that holds it (absolute). */
  readonly file: string;
  /** `sha256:` and the hash of the entry as written; a changed entry is a new request. */
  readonly hash: string;
  /** The entry exactly as written. */
  readonly entry: unknown;
  /** The user file whose entry of the same name it would replace once approved. */
  readonly shadows?: string | undefined;
}

/**
 * Decides which entries are approved. {@link FileTrustStore} is the default; a host with its
 * own policy (its own prompt, an allowlist, a database) implements this and passes it as
 * `trustStore` to `loadConfig`.
 */
export interface TrustStore {
  isApproved(request: ApprovalRequest): boolean;
  /** Remembers the approval, so that later loads use the entry without asking. */
  approve(request: ApprovalRequest): void;
}

/** The trust file's content. */
interface TrustDocument {
  readonly version: 1;
  readonly approved: Record<string, Record<string, string>>;
}

/**
 * Approvals kept in a JSON file (default `trusted.json` beside the user file), written
 * atomically with mode 0600 through a fresh exclusive temporary name. A trust file that is
 * not the user's own or that others may write is ignored (see {@link problem}).
 *
 * @example
 * ```ts
 * import { FileTrustStore, loadConfig } from 'mcpgen/host';
 *
 * const trustStore = new FileTrustStore();
 * const config = loadConfig({ trustStore });
 * for (const request of config.pending) {
 *   // Show request.entry to the user (describeApproval formats it); remember a yes:
 *   if (request.name === 'docs') trustStore.approve(request);
 * }
 * ```
 */
export class FileTrustStore implements TrustStore {
  readonly file: string;
  private approvals: Map<string, Map<string, string>> | undefined;
  private problemValue: string | undefined;

  constructor(file: string = trustFilePath()) {
    this.file = file;
  }

  /** Why the file was ignored (unsafe permissions, not valid JSON), once read. */
  get problem(): string | undefined {
    this.load();
    return this.problemValue;
  }

  /** How many entries are approved. */
  get approvedCount(): number {
    return [...this.load().values()].reduce((sum, names) => sum + names.size, 0);
  }

  isApproved(request: ApprovalRequest): boolean {
    return this.load().get(request.file)?.get(request.name) === request.hash;
  }

  approve(request: ApprovalRequest): void {
    // Read again first, so approvals another process made meanwhile are kept.
    this.approvals = undefined;
    const approvals = this.load();
    const names = approvals.get(request.file) ?? new Map<string, string>();
    names.set(request.name, request.hash);
    approvals.set(request.file, names);
    const document: TrustDocument = {
      version: 1,
      approved: Object.fromEntries([...approvals].map(([file, entries]) => [file, Object.fromEntries(entries)])),
    };
    writeAtomically(this.file, `${JSON.stringify(document, null, 2)}\n`);
    this.problemValue = undefined;
  }

  private load(): Map<string, Map<string, string>> {
    if (this.approvals !== undefined) return this.approvals;
    const approvals = new Map<string, Map<string, string>>();
    this.approvals = approvals;
    this.problemValue = undefined;
    const read = readConfigFile(this.file);
    if (read.kind === 'missing') return approvals;
    if (read.kind === 'refused') {
      this.problemValue = `${read.message}; no approval in it is used`;
      return approvals;
    }
    const approved = isPlainObject(read.document) ? read.document.approved : undefined;
    if (!isPlainObject(read.document) || read.document.version !== 1 || !isPlainObject(approved)) {
      this.problemValue = 'not a trust file (expected {"version": 1, "approved": {…}}); no approval in it is used';
      return approvals;
    }
    for (const [file, names] of Object.entries(approved)) {
      if (!isPlainObject(names)) continue;
      const entries = new Map<string, string>();
      for (const [name, hash] of Object.entries(names)) if (typeof hash === 'string') entries.set(name, hash);
      approvals.set(file, entries);
    }
    return approvals;
  }
}

/** `sha256:<hex>` of an entry as written, with object keys sorted (key order does not matter). */
export function entryHash(entry: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(entry)).digest('hex')}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What the user is asked to approve, one `label  value` line each: the command and every
 * argument, the names of the variables it sets, its working directory, the URL and every
 * header, OAuth settings, anything else the entry has, and the user entry it would replace.
 * `${VAR}` references appear as written; a value with spaces, quotes or control characters is
 * shown as a JSON string, so nothing in it can hide on the terminal.
 */
export function describeApproval(request: ApprovalRequest): string {
  const rows: [string, string][] = [['server', `${shown(request.name)} (${request.scope} file ${shown(request.file)})`]];
  const entry = request.entry;
  if (!isPlainObject(entry)) rows.push(['entry', json(entry)]);
  else {
    for (const [key, value] of Object.entries(entry)) {
      if (key === 'command' && typeof value === 'string') {
        const args = Array.isArray(entry.args) && entry.args.every((arg) => typeof arg === 'string') ? (entry.args as string[]) : [];
        rows.push(['command', [value, ...args].map(shown).join(' ')]);
      } else if (key === 'args' && typeof entry.command === 'string' && Array.isArray(value) && value.every((arg) => typeof arg === 'string')) {
        continue;
      } else if (key === 'env' && isPlainObject(value)) {
        rows.push(['env', Object.keys(value).map(shown).join(', ') || '(none)']);
      } else if (key === 'headers' && isPlainObject(value)) {
        for (const [header, headerValue] of Object.entries(value)) rows.push(['header', `${shown(header)}: ${typeof headerValue === 'string' ? shown(headerValue) : json(headerValue)}`]);
      } else {
        rows.push([shown(key), typeof value === 'string' ? shown(value) : json(value)]);
      }
    }
  }
  if (request.shadows !== undefined) rows.push(['replaces', `the user entry ${shown(request.name)} in ${shown(request.shadows)}`]);
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n');
}

/** A string as it is when plainly printable, else as a JSON string. */
function shown(text: string): string {
  return /^[^\s"'\\\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+$/.test(text) ? text : json(text);
}

function json(value: unknown): string {
  return terminalSafeJson(JSON.stringify(value) ?? 'undefined');
}

/** Replaces `file` with `text` through an exclusive temporary file of mode 0600 and a rename. */
function writeAtomically(file: string, text: string): void {
  const directory = path.dirname(file);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  // 'wx' is O_CREAT | O_EXCL: it fails on any existing name, a planted symlink included.
  const temporary = path.join(directory, `.${path.basename(file)}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`);
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
