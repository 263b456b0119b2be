/**
 * The names under which a host shows tools to a model: `mcp__<server>__<tool>`. Model APIs
 * accept at most 64 characters of `[A-Za-z0-9_-]` and need names unique across all servers, so
 * names that do not fit as they are get a stable hash suffix, and the map keeps the way back.
 */
import { createHash } from 'node:crypto';

/** Longest name model APIs accept. */
export const MAX_TOOL_NAME_LENGTH = 64;
const PREFIX = 'mcp__';
const SEPARATOR = '__';
const HASH_CHARS = 8;

/** A tool as the manager knows it: which server offers it, under which name. */
export interface ToolRef {
  readonly server: string;
  readonly tool: string;
}

/**
 * A server name that, put between `mcp__` and `__`, cannot be confused with another split of
 * the same string: no `__` inside and no `_` at either end.
 */
const CLEAN_SERVER = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const CLEAN_TOOL = /^[A-Za-z0-9_-]+$/;

function hashOf(ref: ToolRef): string {
  return createHash('sha256').update(`${ref.server}\u0000${ref.tool}`).digest('hex').slice(0, HASH_CHARS);
}

function sanitize(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/_{2,}/g, '_');
}

/**
 * The name `ref` gets when nothing about it needs fixing, or undefined when it must be hashed:
 * characters outside the allowed set, an ambiguous server name, or more than 64 characters.
 */
function plainName(ref: ToolRef): string | undefined {
  if (!CLEAN_SERVER.test(ref.server) || !CLEAN_TOOL.test(ref.tool)) return undefined;
  const name = `${PREFIX}${ref.server}${SEPARATOR}${ref.tool}`;
  return name.length <= MAX_TOOL_NAME_LENGTH ? name : undefined;
}

/** A readable prefix (sanitised, trimmed to fit) followed by `_` and a hash of the exact pair. */
function hashedName(ref: ToolRef, salt: number): string {
  const hash = salt === 0 ? hashOf(ref) : hashOf({ server: ref.server, tool: `${ref.tool}\u0000${salt}` });
  const server = sanitize(ref.server).replace(/^_+|_+$/g, '') || 'server';
  const readable = `${PREFIX}${server}${SEPARATOR}${sanitize(ref.tool)}`;
  return `${readable.slice(0, MAX_TOOL_NAME_LENGTH - HASH_CHARS - 1)}_${hash}`;
}

/**
 * Exposed names for a set of tools. Plain names (`mcp__<server>__<tool>` when that fits and is
 * unambiguous) are unique by construction and taken first; every other tool gets a readable
 * prefix plus a hash of its exact server and tool names, so its name does not depend on which
 * other tools exist. The map is deterministic for a given set.
 *
 * @example
 * ```ts
 * import { ToolNameMap } from 'mcpgen/host';
 *
 * const names = new ToolNameMap([{ server: 'github', tool: 'create_issue' }, { server: 'my.db', tool: 'query' }]);
 * names.nameOf({ server: 'github', tool: 'create_issue' }); // 'mcp__github__create_issue'
 * names.resolve('mcp__github__create_issue'); // { server: 'github', tool: 'create_issue' }
 * ```
 */
export class ToolNameMap {
  private readonly byName = new Map<string, ToolRef>();
  private readonly byRef = new Map<string, string>();

  constructor(refs: Iterable<ToolRef>) {
    const sorted = [...refs].sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool));
    const hashed: ToolRef[] = [];
    for (const ref of sorted) {
      if (this.byRef.has(key(ref))) continue;
      const plain = plainName(ref);
      if (plain === undefined) hashed.push(ref);
      else this.add(plain, ref);
    }
    for (const ref of hashed) {
      if (this.byRef.has(key(ref))) continue;
      let salt = 0;
      let name = hashedName(ref, salt);
      while (this.byName.has(name)) name = hashedName(ref, ++salt);
      this.add(name, ref);
    }
  }

  /** The exposed name of a tool, if it is in the map. */
  nameOf(ref: ToolRef): string | undefined {
    return this.byRef.get(key(ref));
  }

  /** The server and tool behind an exposed name. */
  resolve(name: string): ToolRef | undefined {
    return this.byName.get(name);
  }

  /** Every exposed name with its tool, in a stable order. */
  entries(): [string, ToolRef][] {
    return [...this.byName.entries()];
  }

  get size(): number {
    return this.byName.size;
  }

  private add(name: string, ref: ToolRef): void {
    this.byName.set(name, ref);
    this.byRef.set(key(ref), name);
  }
}

function key(ref: ToolRef): string {
  return `${ref.server}\u0000${ref.tool}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
