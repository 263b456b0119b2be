/**
 * The shape checks every inbound message passes before anything reads it: a bound on how deeply
 * objects and arrays nest (the validators, the request-state digest and JSON.stringify of a
 * reply that echoes the input all recurse, and a deep enough value overflows their stack), and
 * the removal of keys that JSON.parse makes own properties but that reach prototypes once user
 * code copies or merges the value.
 */
import { SdkError } from './errors.js';

/** Default of `maxNestingDepth`: objects and arrays nest at most 100 levels, the message being level 1. */
export const DEFAULT_MAX_NESTING_DEPTH = 100;

/** Path segments longer than this are cut in error messages, so that a huge key cannot bloat a reply. */
const MAX_SEGMENT_CHARS = 32;

/** Where an inbound message nests too deeply. */
export interface NestingExcess {
  /** The member of the message the excess is under (`params`, `result`, `error`…). */
  readonly member: string;
  /** JSON Pointer, relative to that member, of the first value nested one level too deep. */
  readonly path: string;
}

/** The range `maxNestingDepth` accepts: a request with params needs 2 levels, and the walk recurses once per level. */
export const NESTING_DEPTH_RANGE = { min: 2, max: 1_000 } as const;

/** `maxNestingDepth` as given, or its default; throws SdkError('INVALID_ARGUMENT') outside {@link NESTING_DEPTH_RANGE}. */
export function nestingDepthOption(value: number | undefined): number {
  const depth = value ?? DEFAULT_MAX_NESTING_DEPTH;
  if (!Number.isInteger(depth) || depth < NESTING_DEPTH_RANGE.min || depth > NESTING_DEPTH_RANGE.max) {
    throw new SdkError('INVALID_ARGUMENT', `maxNestingDepth must be an integer from ${NESTING_DEPTH_RANGE.min} to ${NESTING_DEPTH_RANGE.max}, not ${String(value)}`);
  }
  return depth;
}

/**
 * Walks `message` once. It deletes every own `__proto__` key (Object.assign would set the
 * target's prototype from it) and every `constructor` key whose value is an object (a naive deep
 * merge follows it to `Object.prototype`), and returns where the message first nests deeper than
 * `maxDepth` levels (the message itself is level 1), or undefined when it does not. The walk
 * stops descending at `maxDepth`, so its own recursion is bounded by the limit, not the input.
 */
export function inspectInbound(message: object, maxDepth: number): NestingExcess | undefined {
  const trail = tooDeep(message, maxDepth - 1);
  if (trail === undefined) {
    return undefined;
  }
  // The trail was filled while unwinding: the deepest segment first.
  trail.reverse();
  const [member = '', ...rest] = trail;
  return { member, path: rest.map(pointerSegment).join('') };
}

/**
 * Undefined when `node` holds no objects more than `levelsLeft` levels below it; otherwise the
 * path to the first that is, deepest segment first. The path is allocated only where the walk
 * finds the excess, so a message within the limit costs no allocation.
 */
function tooDeep(node: object, levelsLeft: number): string[] | undefined {
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index++) {
      const child: unknown = node[index];
      if (typeof child !== 'object' || child === null) continue;
      const trail = levelsLeft === 0 ? [] : tooDeep(child, levelsLeft - 1);
      if (trail !== undefined) {
        trail.push(String(index));
        return trail;
      }
    }
    return undefined;
  }
  for (const key in node) {
    const child: unknown = (node as Record<string, unknown>)[key];
    if (typeof child !== 'object' || child === null) {
      if (key === '__proto__') Reflect.deleteProperty(node, key);
      continue;
    }
    if (key === '__proto__' || key === 'constructor') {
      Reflect.deleteProperty(node, key);
      continue;
    }
    const trail = levelsLeft === 0 ? [] : tooDeep(child, levelsLeft - 1);
    if (trail !== undefined) {
      trail.push(key);
      return trail;
    }
  }
  return undefined;
}

function pointerSegment(segment: string): string {
  const cut = segment.length > MAX_SEGMENT_CHARS ? `${segment.slice(0, MAX_SEGMENT_CHARS)}…` : segment;
  return `/${cut.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}
