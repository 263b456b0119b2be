/**
 * Validators a revision shares with the extensions built on it. An extension's schema repeats
 * some definitions of its core revision (the JSON-RPC envelope, content blocks, sampling and
 * elicitation shapes); their checks live in one module outside the revision's folder, which the
 * revision's validators and the extension's both import. Importing an extension then reaches no
 * file of its core revision, and a build that loads both carries each check once.
 */
import { validatorName } from './emit-revision.js';
import { compileValidators, type SharedValidators, supportImport, validatorExport } from './emit-validators.js';
import type { RevisionModel } from './model.js';

/** Where the validators `revision` shares with its extensions live, relative to generated/. */
export function sharedValidatorsFile(revision: string): string {
  return `shared/validators-${revision}.ts`;
}

/**
 * The shared module of `core` for `names` and every definition they reach (an extension shares
 * a definition only with all it reaches), or null when there are none. Every function it
 * compiles is exported, so that the revision's module calls them instead of compiling them again.
 */
export function sharedValidators(core: RevisionModel, names: Iterable<string>): SharedValidators | null {
  const sorted = [...new Set(names)].sort();
  if (sorted.length === 0) return null;
  const compiled = compileValidators({ revision: core.pin.revision, definitions: core.definitions, targets: sorted.map((name) => ({ name, schema: core.definitions[name]! })), exportChecks: true });
  const lines = [supportImport(compiled, './validator-support.js'), `import type * as T from '../${core.pin.revision}/types.js';`, ''];
  for (const name of sorted) {
    lines.push(`/** Checks a value against the \`${name}\` definition. */`);
    lines.push(validatorExport(validatorName(name), compiled.checkOf.get(name)!, `T.${name}`));
  }
  return {
    file: sharedValidatorsFile(core.pin.revision),
    checks: new Map(sorted.map((name) => [name, compiled.checkOf.get(name)!])),
    inline: compiled.inline,
    text: `${lines.join('\n')}\n\n${compiled.code}\n`,
  };
}
