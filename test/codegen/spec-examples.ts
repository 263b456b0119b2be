/**
 * Test access to the specification's example messages and to the generated revision modules.
 * Spec data is read only through MCP_SPEC_MIRROR; nothing from the spec is committed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Validator } from '../../generated/contract.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** The mirror folder named by MCP_SPEC_MIRROR; throws a message naming the variable when unusable. */
export function specMirrorDir(): string {
  const dir = process.env['MCP_SPEC_MIRROR'];
  if (dir === undefined || dir.trim() === '') {
    throw new Error('MCP_SPEC_MIRROR is not set: point it at the spec mirror folder holding <revision>/schema.json and <revision>/examples (e.g. MCP_SPEC_MIRROR=/work/shared/spec)');
  }
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new Error(`MCP_SPEC_MIRROR=${dir} is not a folder: point it at the spec mirror folder holding <revision>/schema.json and <revision>/examples`);
  }
  return dir;
}

/** One official example: `<revision>/examples/<type>/<file>`, where `type` is a definition name. */
export interface SpecExample {
  readonly type: string;
  readonly file: string;
  /** `<type>/<file>`, the key the expectation tables use. */
  readonly id: string;
  readonly value: unknown;
}

/** Every example of a revision, sorted by type and file name. */
export function readExamples(revision: string): SpecExample[] {
  const dir = join(specMirrorDir(), revision, 'examples');
  if (!existsSync(dir)) throw new Error(`MCP_SPEC_MIRROR: ${dir} does not exist; the mirror must hold ${revision}/examples/<Type>/*.json`);
  const out: SpecExample[] = [];
  for (const type of readdirSync(dir).sort()) {
    if (!statSync(join(dir, type)).isDirectory()) continue;
    for (const file of readdirSync(join(dir, type)).sort()) {
      if (!file.endsWith('.json')) continue;
      out.push({ type, file, id: `${type}/${file}`, value: JSON.parse(readFileSync(join(dir, type, file), 'utf8')) as unknown });
    }
  }
  return out;
}

/** The example with the given `<type>/<file>` id, parsed afresh so callers may mutate it. */
export function readExample(revision: string, id: string): Record<string, unknown> {
  const file = join(specMirrorDir(), revision, 'examples', id);
  if (!existsSync(file)) throw new Error(`MCP_SPEC_MIRROR: example ${file} does not exist`);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** `validate<name>` exported by a generated revision module, if the revision has that definition. */
export function validatorOf(mod: object, name: string): Validator | undefined {
  const candidate = (mod as Record<string, unknown>)[`validate${name}`];
  return typeof candidate === 'function' ? (candidate as Validator) : undefined;
}

/** Like validatorOf, but the definition must exist. */
export function requireValidator(mod: object, name: string): Validator {
  const validate = validatorOf(mod, name);
  if (validate === undefined) throw new Error(`generated module exports no validate${name}`);
  return validate;
}

/** The validator's errors of its last call as plain `{instancePath, keyword, params}` records. */
export function issues(validate: Validator): Array<{ instancePath: string; keyword: string; params: Record<string, unknown> }> {
  return (validate.errors ?? []).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, params: { ...e.params } }));
}
