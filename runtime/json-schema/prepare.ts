import { isPlainObject, parsePointer } from './json-values.js';
import type { JsonSchema, JsonSchemaObject } from './types.js';

/** Keywords whose value is one subschema. */
const SINGLE = ['additionalProperties', 'additionalItems', 'items', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties'];
/** Keywords whose value is an array of subschemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

/**
 * A schema made ready for repeated evaluation: every `$ref` resolved and every `pattern`
 * compiled once, so that a broken schema fails at registration rather than at the first call,
 * and evaluation itself does no parsing.
 */
export class PreparedSchema {
  readonly root: JsonSchema;
  private readonly refs = new Map<string, JsonSchema>();
  private readonly patterns = new Map<string, RegExp>();
  private readonly anchors = new Map<string, JsonSchemaObject>();
  private readonly rootId: string | undefined;

  constructor(root: JsonSchema) {
    if (typeof root !== 'boolean' && !isPlainObject(root)) throw new TypeError('A JSON Schema must be an object or a boolean');
    this.root = root;
    this.rootId = isPlainObject(root) && typeof root.$id === 'string' ? root.$id.split('#')[0] : undefined;
    const refs: string[] = [];
    this.walk(root, refs, new Set());
    for (const ref of refs) this.refs.set(ref, this.resolve(ref));
  }

  /** The subschema a `$ref` (seen at preparation) points to. */
  target(ref: string): JsonSchema {
    return this.refs.get(ref)!;
  }

  /** The compiled `pattern` / `patternProperties` regular expression for `source`. */
  regex(source: string): RegExp {
    return this.patterns.get(source)!;
  }

  private walk(node: unknown, refs: string[], seen: Set<object>): void {
    if (!isPlainObject(node) || seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === 'string') refs.push(node.$ref);
    if (typeof node.$anchor === 'string') this.anchors.set(node.$anchor, node);
    if (typeof node.pattern === 'string') this.compilePattern(node.pattern);
    if (isPlainObject(node.patternProperties)) for (const source of Object.keys(node.patternProperties)) this.compilePattern(source);
    for (const keyword of SINGLE) if (keyword in node) this.walk(node[keyword], refs, seen);
    for (const keyword of LIST) {
      const value = node[keyword];
      if (Array.isArray(value)) for (const item of value) this.walk(item, refs, seen);
    }
    for (const keyword of MAP) {
      const value = node[keyword];
      if (isPlainObject(value)) for (const key of Object.keys(value)) this.walk(value[key], refs, seen);
    }
  }

  private compilePattern(source: string): void {
    if (this.patterns.has(source)) return;
    let regex: RegExp;
    try {
      regex = new RegExp(source, 'u');
    } catch {
      // Patterns written for ECMA-262 without the `u` flag (e.g. `\-` escapes) still deserve a chance.
      try {
        regex = new RegExp(source);
      } catch (error) {
        throw new SyntaxError(`Invalid pattern ${JSON.stringify(source)} in JSON Schema: ${(error as Error).message}`);
      }
    }
    this.patterns.set(source, regex);
  }

  private resolve(ref: string): JsonSchema {
    let fragment: string | undefined;
    if (ref.startsWith('#')) fragment = ref.slice(1);
    else if (this.rootId !== undefined && ref.startsWith(this.rootId)) fragment = ref.slice(this.rootId.length).replace(/^#/, '');
    if (fragment === undefined) {
      throw new SyntaxError(`Unsupported $ref ${JSON.stringify(ref)}: only references inside the schema (#, #/…, #anchor) are resolved`);
    }
    const decoded = safeDecode(fragment);
    if (decoded !== '' && !decoded.startsWith('/')) {
      const anchored = this.anchors.get(decoded);
      if (anchored === undefined) throw new SyntaxError(`Unresolvable $ref ${JSON.stringify(ref)}: no $anchor ${JSON.stringify(decoded)}`);
      return anchored;
    }
    let node: unknown = this.root;
    for (const token of parsePointer(decoded)) {
      if (Array.isArray(node)) node = node[Number(token)];
      else if (isPlainObject(node) && Object.hasOwn(node, token)) node = node[token];
      else node = undefined;
      if (node === undefined) break;
    }
    if (typeof node !== 'boolean' && !isPlainObject(node)) throw new SyntaxError(`Unresolvable $ref ${JSON.stringify(ref)}`);
    return node;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
