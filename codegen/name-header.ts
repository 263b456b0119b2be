/**
 * Which params member a stateless-era request's `Mcp-Name` header carries: a fact of the
 * transport page, not of the schema, so it comes from NAME_HEADER_OVERLAY, checked against the
 * params the schema gives the request.
 */
import { CodegenError, type RevisionModel } from './model.js';
import { NAME_HEADER_OVERLAY, type NameHeaderOverlayEntry } from './overlay.js';
import { isSchemaObject, refTarget, type Schema } from './schema-walk.js';

/** The property names of a params schema, through `$ref` and `allOf`. */
function memberNames(model: RevisionModel, schema: Schema, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  const target = refTarget(schema.$ref);
  if (target !== null && !seen.has(target)) {
    seen.add(target);
    const referenced = model.definitions[target];
    if (referenced !== undefined) for (const name of memberNames(model, referenced, seen)) names.add(name);
  }
  if (isSchemaObject(schema.properties)) for (const name of Object.keys(schema.properties)) names.add(name);
  for (const member of (schema.allOf as unknown[] | undefined) ?? []) {
    if (isSchemaObject(member)) for (const name of memberNames(model, member, seen)) names.add(name);
  }
  return names;
}

/** What decides a request's name header. */
export interface NameHeaderInput {
  readonly definition: string;
  readonly kind: 'request' | 'notification';
  readonly embedded: boolean;
  /** The params schema (a `$ref` to their definition, or inline), or null when there are none. */
  readonly params: Schema | null;
  /** True for a revision of the stateless era (no `initialize`), the only one with the header. */
  readonly stateless: boolean;
}

/**
 * The params member a request's `Mcp-Name` header carries, or null when it carries none.
 * Throws when the overlay names a member the request's params do not have.
 */
export function nameHeaderMember(model: RevisionModel, input: NameHeaderInput, overlay: Readonly<Record<string, NameHeaderOverlayEntry>> = NAME_HEADER_OVERLAY): string | null {
  if (!input.stateless || input.kind !== 'request' || input.embedded) return null;
  const entry = Object.hasOwn(overlay, input.definition) ? overlay[input.definition] : undefined;
  if (entry === undefined) return null;
  if (input.params === null || !memberNames(model, input.params).has(entry.member)) {
    throw new CodegenError(`revision ${model.pin.revision}: NAME_HEADER_OVERLAY in codegen/overlay.ts names params member ${entry.member} of ${input.definition}, whose params have no such member`);
  }
  return entry.member;
}
