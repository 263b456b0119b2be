// The file is also type-checked on its own, without tsconfig.json, and TypeScript no longer
// loads @types packages implicitly, so it names the Node types it uses itself.
/// <reference types="node" />
/**
 * Corrections to the official MCP JSON Schemas, applied before code generation.
 *
 * Each revision has a file `spec/patches/<revision>.json` holding a JSON array of patches.
 * A patch is a list of RFC 6902 operations (test, add, replace, remove) whose JSON Pointers
 * address the whole schema document. Every patch opens with a `test` op that pins the exact
 * value it corrects, so a schema that changed underneath a patch makes generation fail
 * instead of silently patching the wrong thing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestOp {
  readonly op: 'test';
  readonly path: string;
  readonly value: unknown;
}

export interface AddOp {
  readonly op: 'add';
  readonly path: string;
  readonly value: unknown;
}

export interface ReplaceOp {
  readonly op: 'replace';
  readonly path: string;
  readonly value: unknown;
}

export interface RemoveOp {
  readonly op: 'remove';
  readonly path: string;
}

/** The RFC 6902 subset patches use; `move` and `copy` are never needed to fix a schema. */
export type PatchOp = TestOp | AddOp | ReplaceOp | RemoveOp;

export interface Patch {
  /** Kebab-case identifier, unique within its revision's file. */
  readonly id: string;
  /** Why the schema is wrong, naming the spec page or prose that proves it. */
  readonly reason: string;
  readonly ops: readonly PatchOp[];
}

const KEBAB_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const OP_NAMES: ReadonlySet<string> = new Set(['test', 'add', 'replace', 'remove']);
const OP_KEYS: Readonly<Record<string, readonly string[]>> = {
  test: ['op', 'path', 'value'],
  add: ['op', 'path', 'value'],
  replace: ['op', 'path', 'value'],
  remove: ['op', 'path'],
};

/**
 * Reads and validates `spec/patches/<revision>.json` under the repository root `specDir`.
 * A revision that needs no patch still has a file holding `[]`, so a missing file is an
 * error rather than an implicit "no patches".
 */
export function loadPatches(revision: string, specDir: string): Patch[] {
  const file = join(specDir, 'spec', 'patches', `${revision}.json`);
  const where = `patch file ${file} (revision ${revision})`;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `${where} cannot be read: ${describe(error)}; a revision without patches needs a file containing []`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${where} is not valid JSON: ${describe(error)}`);
  }
  return validatePatchList(data, where);
}

function validatePatchList(data: unknown, where: string): Patch[] {
  if (!Array.isArray(data)) {
    throw new Error(`${where} must hold a JSON array of patches`);
  }
  const seen = new Set<string>();
  return data.map((entry: unknown, index): Patch => {
    const at = `${where}, patch #${index}`;
    if (!isPlainObject(entry)) {
      throw new Error(`${at} must be an object with id, reason and ops`);
    }
    const unknownKeys = Object.keys(entry).filter((key) => !['id', 'reason', 'ops'].includes(key));
    if (unknownKeys.length > 0) {
      throw new Error(`${at} has unknown member(s) ${unknownKeys.join(', ')}`);
    }
    const { id, reason, ops } = entry;
    if (typeof id !== 'string' || !KEBAB_ID.test(id)) {
      throw new Error(`${at} needs a kebab-case string id, got ${preview(id)}`);
    }
    const named = `${where}, patch ${id}`;
    if (seen.has(id)) {
      throw new Error(`${named} reuses an id already taken in this file`);
    }
    seen.add(id);
    if (typeof reason !== 'string' || reason.trim() === '') {
      throw new Error(`${named} needs a non-empty reason`);
    }
    if (!Array.isArray(ops) || ops.length === 0) {
      throw new Error(`${named} needs a non-empty ops array`);
    }
    const checkedOps = ops.map((op: unknown, opIndex) => validateOp(op, `${named}, ops[${opIndex}]`));
    if (checkedOps[0]?.op !== 'test') {
      throw new Error(`${named} must start with a test op that guards the value it changes`);
    }
    return { id, reason, ops: checkedOps };
  });
}

function validateOp(op: unknown, at: string): PatchOp {
  if (!isPlainObject(op)) {
    throw new Error(`${at} must be an object`);
  }
  const name = op['op'];
  if (typeof name !== 'string' || !OP_NAMES.has(name)) {
    throw new Error(`${at} has unsupported op ${preview(name)} (allowed: test, add, replace, remove)`);
  }
  const allowed = OP_KEYS[name] ?? [];
  const extra = Object.keys(op).filter((key) => !allowed.includes(key));
  if (extra.length > 0) {
    throw new Error(`${at} (${name}) has unknown member(s) ${extra.join(', ')}`);
  }
  const path = op['path'];
  if (typeof path !== 'string') {
    throw new Error(`${at} (${name}) needs a string path`);
  }
  try {
    parsePointer(path);
  } catch (error) {
    throw new Error(`${at} (${name}) has a bad path ${JSON.stringify(path)}: ${describe(error)}`);
  }
  if (name === 'remove') {
    return { op: 'remove', path };
  }
  if (!('value' in op)) {
    throw new Error(`${at} (${name}) needs a value`);
  }
  const value: unknown = op['value'];
  if (name === 'test') return { op: 'test', path, value };
  if (name === 'add') return { op: 'add', path, value };
  return { op: 'replace', path, value };
}

/**
 * Applies `patches` in order to a deep copy of `schema` and returns the copy; the input is
 * never modified. The first failing operation aborts with a one-line Error naming the
 * revision, the patch id and the JSON Pointer.
 */
export function applyPatches(revision: string, schema: unknown, patches: Patch[]): unknown {
  let document: unknown = structuredClone(schema);
  for (const patch of patches) {
    patch.ops.forEach((op, index) => {
      try {
        document = applyOp(document, op);
      } catch (error) {
        throw new Error(
          `revision ${revision}, patch ${patch.id}, ops[${index}] ${op.op} ${JSON.stringify(op.path)}: ${describe(error)}`,
        );
      }
    });
  }
  return document;
}

/** Applies one operation and returns the (possibly new) root. */
function applyOp(root: unknown, op: PatchOp): unknown {
  const tokens = parsePointer(op.path);
  switch (op.op) {
    case 'test': {
      const actual = resolve(root, tokens);
      if (!jsonEqual(actual, op.value)) {
        throw new Error(`test failed: expected ${preview(op.value)}, found ${preview(actual)}`);
      }
      return root;
    }
    case 'add': {
      const value = structuredClone(op.value);
      if (tokens.length === 0) return value;
      const { parent, key } = locateParent(root, tokens);
      if (Array.isArray(parent)) {
        const index = key === '-' ? parent.length : arrayIndex(key, parent.length + 1);
        parent.splice(index, 0, value);
      } else {
        setMember(parent, key, value);
      }
      return root;
    }
    case 'replace': {
      const value = structuredClone(op.value);
      if (tokens.length === 0) return value;
      const { parent, key } = locateParent(root, tokens);
      if (Array.isArray(parent)) {
        parent[arrayIndex(key, parent.length)] = value;
      } else {
        if (!Object.hasOwn(parent, key)) throw new Error(`no member ${JSON.stringify(key)} to replace`);
        setMember(parent, key, value);
      }
      return root;
    }
    case 'remove': {
      if (tokens.length === 0) throw new Error('cannot remove the whole document');
      const { parent, key } = locateParent(root, tokens);
      if (Array.isArray(parent)) {
        parent.splice(arrayIndex(key, parent.length), 1);
      } else {
        if (!Object.hasOwn(parent, key)) throw new Error(`no member ${JSON.stringify(key)} to remove`);
        delete parent[key];
      }
      return root;
    }
  }
}

/** Splits an RFC 6901 JSON Pointer into unescaped reference tokens. */
function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error('a JSON Pointer must be empty or start with "/"');
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~(?![01])/.test(token)) throw new Error(`bad escape in token ${JSON.stringify(token)}`);
      // ~1 first: decoding ~0 first would turn "~01" into "/" instead of "~1".
      return token.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

type Container = unknown[] | Record<string, unknown>;

function resolve(root: unknown, tokens: readonly string[]): unknown {
  let current: unknown = root;
  tokens.forEach((token, depth) => {
    current = child(current, token, tokens.slice(0, depth));
  });
  return current;
}

function child(container: unknown, token: string, trail: readonly string[]): unknown {
  if (Array.isArray(container)) {
    return container[arrayIndex(token, container.length)];
  }
  if (isPlainObject(container)) {
    if (!Object.hasOwn(container, token)) {
      throw new Error(`no member ${JSON.stringify(token)} at ${formatPointer(trail)}`);
    }
    return container[token];
  }
  throw new Error(`${formatPointer(trail)} is ${preview(container)}, not an object or array`);
}

function locateParent(root: unknown, tokens: readonly string[]): { parent: Container; key: string } {
  const parentTokens = tokens.slice(0, -1);
  const parent = resolve(root, parentTokens);
  if (!Array.isArray(parent) && !isPlainObject(parent)) {
    throw new Error(`parent ${formatPointer(parentTokens)} is ${preview(parent)}, not an object or array`);
  }
  return { parent, key: tokens[tokens.length - 1] ?? '' };
}

/** Parses an array index token; `limit` is the first index that is out of range. */
function arrayIndex(token: string, limit: number): number {
  if (!/^(?:0|[1-9][0-9]*)$/.test(token)) {
    throw new Error(`${JSON.stringify(token)} is not an array index`);
  }
  const index = Number(token);
  if (index >= limit) throw new Error(`array index ${index} is out of range`);
  return index;
}

/** Sets an own data property, so a key such as "__proto__" stays an ordinary member. */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => jsonEqual(item, b[index]))
    );
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
    );
  }
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function formatPointer(tokens: readonly string[]): string {
  if (tokens.length === 0) return 'the document root';
  return tokens.map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** A short single-line rendering of a JSON value for error messages. */
function preview(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ');
}
