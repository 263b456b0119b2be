/**
 * The generated validators decide exactly as ajv 8 does on the same patched definitions, and
 * report ajv's issues (see sameIssues): on every official example, on an instance built from each
 * definition, and on single-point mutations of both, for every revision and the tasks and apps extensions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Validator } from '../../generated/contract.js';
import * as r20241105 from '../../generated/2024-11-05/validators.js';
import * as r20250326 from '../../generated/2025-03-26/validators.js';
import * as r20250618 from '../../generated/2025-06-18/validators.js';
import * as r20251125 from '../../generated/2025-11-25/validators.js';
import * as r20260728 from '../../generated/2026-07-28/validators.js';
import * as rDraft from '../../generated/draft/validators.js';
import * as tasks from '../../generated/extensions/tasks/validators.js';
import * as apps from '../../generated/extensions/apps/validators.js';
import { inlineParamsTarget, validatorName } from '../../codegen/emit-revision.js';
import { buildExtension, readExtensionPins } from '../../codegen/extensions.js';
import { buildRevision } from '../../codegen/main.js';
import type { RevisionModel } from '../../codegen/model.js';
import type { Schema } from '../../codegen/schema-walk.js';
import { readPins, repoRoot } from '../../codegen/spec-source.js';
import { readExamples, specMirrorDir } from './spec-examples.js';
import { mutations, nestedValues, sampleOf } from './validator-corpus.js';
import { comparable, type ComparableIssue, ReferenceValidators } from './validator-reference.js';

const MODULES: Record<string, object> = {
  '2024-11-05': r20241105,
  '2025-03-26': r20250326,
  '2025-06-18': r20250618,
  '2025-11-25': r20251125,
  '2026-07-28': r20260728,
  draft: rDraft,
  'extensions/tasks': tasks,
  'extensions/apps': apps,
};

interface Subject {
  readonly model: RevisionModel;
  /** Target name → its schema (definitions and inline params). */
  readonly targets: ReadonlyMap<string, Schema>;
}

const subjects = new Map<string, Subject>();

beforeAll(async () => {
  const mirror = specMirrorDir();
  for (const pin of readPins(repoRoot)) {
    const { model, table } = await buildRevision(pin, { mirror });
    const targets = new Map<string, Schema>(Object.entries(model.definitions));
    for (const spec of table.methods) if (spec.paramsDefinition === null && spec.paramsSchema !== null) targets.set(inlineParamsTarget(spec), spec.paramsSchema);
    subjects.set(pin.revision, { model, targets });
  }
  for (const pin of readExtensionPins(repoRoot)) {
    const built = await buildExtension(pin, subjects.get(pin.core)!.model, { root: repoRoot, mirror });
    subjects.set(built.model.pin.revision, { model: built.model, targets: new Map(built.targets.map((t) => [t.name, t.schema])) });
  }
}, 60_000);

/**
 * Whether the generated issues match ajv's: the same list where ajv reports one issue; where an
 * anyOf failed, ajv lists every failure of every branch (an inline branch may report several),
 * the emitter the first failure of each, so its list is a subset ending in the same anyOf issue.
 */
function sameIssues(mine: ComparableIssue[], theirs: ComparableIssue[]): boolean {
  const key = (issue: ComparableIssue) => JSON.stringify(issue);
  if (theirs.length <= 1) return JSON.stringify(mine) === JSON.stringify(theirs);
  const all = new Set(theirs.map(key));
  return mine.length > 0 && key(mine[mine.length - 1]!) === key(theirs[theirs.length - 1]!) && mine.every((issue) => all.has(key(issue)));
}

/** Runs both validators on every value; returns the disagreements (at most a few, for the report). */
function disagreements(generated: Validator, reference: ReturnType<ReferenceValidators['definition']>, values: Iterable<unknown>): unknown[] {
  const found: unknown[] = [];
  for (const value of values) {
    const mine = generated(value);
    const theirs = reference(value) as boolean;
    const same = mine === theirs && (mine || sameIssues(comparable(generated.errors), comparable(reference.errors)));
    if (!same) {
      found.push({ value, generated: mine ? 'valid' : comparable(generated.errors), ajv: theirs ? 'valid' : comparable(reference.errors) });
      if (found.length >= 3) break;
    }
  }
  return found;
}

const examples = () => readExamples('2026-07-28');

describe.each(Object.keys(MODULES))('%s: generated validators agree with ajv', (revision) => {
  it('on every example, every value nested in one, and an instance built from each target, against every target', () => {
    const { model, targets } = subjects.get(revision)!;
    const reference = new ReferenceValidators(model);
    const corpus = new Map<string, unknown>();
    for (const example of examples()) nestedValues(example.value, corpus);
    for (const schema of targets.values()) nestedValues(sampleOf(schema, model.definitions), corpus);
    const values = [...corpus.values()];
    const failures: Record<string, unknown[]> = {};
    for (const [name, schema] of targets) {
      const generated = (MODULES[revision] as Record<string, Validator>)[validatorName(name)];
      expect(generated, `${revision} exports ${validatorName(name)}`).toBeTypeOf('function');
      const ajv = model.definitions[name] === schema ? reference.definition(name) : reference.inline(schema);
      const found = disagreements(generated!, ajv, values);
      if (found.length > 0) failures[name] = found;
    }
    expect(failures).toEqual({});
  });

  it('on single-point mutations of each example (against its own type) and of each built instance', () => {
    const { model, targets } = subjects.get(revision)!;
    const reference = new ReferenceValidators(model);
    const failures: Record<string, unknown[]> = {};
    const check = (label: string, name: string, values: unknown[]) => {
      const generated = (MODULES[revision] as Record<string, Validator>)[validatorName(name)];
      if (generated === undefined) return;
      const schema = targets.get(name)!;
      const ajv = model.definitions[name] === schema ? reference.definition(name) : reference.inline(schema);
      const found = disagreements(generated, ajv, values);
      if (found.length > 0) failures[label] = found;
    };
    for (const example of examples()) if (targets.has(example.type)) check(example.id, example.type, [example.value, ...mutations(example.value)]);
    for (const [name, schema] of targets) {
      const sample = sampleOf(schema, model.definitions);
      check(`${name} (built)`, name, [sample, ...mutations(sample)]);
    }
    expect(failures).toEqual({});
  });
});
