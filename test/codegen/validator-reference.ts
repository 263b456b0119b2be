/**
 * The semantic reference for the generated validators: ajv 8 compiled in the test from the same
 * patched definitions, with the settings codegen used before it had its own emitter (strict,
 * strictRequired off, union types allowed) and the same format checks.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { RevisionModel } from '../../codegen/model.js';
import type { Schema } from '../../codegen/schema-walk.js';
import { isByte, isUri } from '../../codegen/templates/validator-support.js';

/** One issue as both validators report it, schemaPath aside (the emitter has none). */
export interface ComparableIssue {
  readonly instancePath: string;
  readonly keyword: string;
  readonly params: Record<string, unknown>;
  readonly message: string;
}

/** ajv validators for every definition of one model, and for extra inline schemas on request. */
export class ReferenceValidators {
  private readonly ajv: Ajv.default;
  private readonly id: string;
  private readonly model: RevisionModel;
  private counter = 0;

  constructor(model: RevisionModel) {
    this.model = model;
    // inlineRefs off as codegen had it: a $ref is a call that reports its first failure only.
    this.ajv = new Ajv.default({ strict: true, strictRequired: false, allowUnionTypes: true, inlineRefs: false });
    // ajv-formats' uri-template; uri and byte are mcpgen's own checks, as the ajv-compiled code had them.
    addFormats.default(this.ajv, ['uri-template']);
    this.ajv.addFormat('uri', isUri);
    this.ajv.addFormat('byte', isByte);
    this.id = `urn:mcpgen:${model.pin.revision}`;
    this.ajv.addSchema({ $id: this.id, definitions: model.definitions });
  }

  definition(name: string): ValidateFunction {
    const validate = this.ajv.getSchema(`${this.id}#/definitions/${name}`);
    if (validate === undefined) throw new Error(`${this.model.pin.revision}: no definition ${name}`);
    return validate;
  }

  /** An inline schema whose `$ref`s point into the model's definitions. */
  inline(schema: Schema): ValidateFunction {
    this.counter++;
    return this.ajv.compile({ ...schema, $id: `${this.id}:inline:${this.counter}`, definitions: this.model.definitions });
  }
}

export function comparable(errors: ReadonlyArray<{ instancePath: string; keyword: string; params: Record<string, unknown>; message?: string }> | null | undefined): ComparableIssue[] {
  return (errors ?? []).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, params: { ...e.params }, message: e.message ?? '' }));
}
