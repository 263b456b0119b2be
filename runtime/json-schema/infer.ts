import type { StandardJsonSchemaV1 } from './standard-schema.js';
import type { JsonSchemaObject } from './types.js';

/**
 * The TypeScript type a JSON Schema literal describes, for schemas written `as const`. It
 * covers what tool schemas use (type, properties, required, items, enum, const,
 * additionalProperties) and falls back to `unknown` elsewhere; nesting is cut off after a few
 * levels to keep type checking cheap.
 *
 * @example
 * ```ts
 * import type { FromJsonSchema } from 'mcpgen';
 * const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const;
 * type Args = FromJsonSchema<typeof schema>; // { n: number }
 * ```
 */
export type FromJsonSchema<S, Depth extends unknown[] = []> = Depth['length'] extends 6
  ? unknown
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: ReadonlyArray<infer E> }
      ? E
      : S extends { readonly type: infer T }
        ? TypeOf<S, T, [...Depth, unknown]>
        : unknown;

type TypeOf<S, T, Depth extends unknown[]> = T extends ReadonlyArray<infer Each>
  ? TypeOf<S, Each, Depth>
  : T extends 'string'
    ? string
    : T extends 'number' | 'integer'
      ? number
      : T extends 'boolean'
        ? boolean
        : T extends 'null'
          ? null
          : T extends 'array'
            ? S extends { readonly items: infer I } ? Array<FromJsonSchema<I, Depth>> : unknown[]
            : T extends 'object'
              ? ObjectOf<S, Depth>
              : unknown;

type ObjectOf<S, Depth extends unknown[]> = S extends { readonly properties: infer P }
  ? Flatten<
      { -readonly [K in keyof P & RequiredKeys<S>]: FromJsonSchema<P[K], Depth> } & {
        -readonly [K in Exclude<keyof P, RequiredKeys<S>>]?: FromJsonSchema<P[K], Depth>;
      } & (S extends { readonly additionalProperties: false } ? unknown : { [key: string]: unknown })
    >
  : { [key: string]: unknown };

type RequiredKeys<S> = S extends { readonly required: ReadonlyArray<infer R> } ? R & string : never;

type Flatten<T> = { [K in keyof T]: T[K] };

/** The object a raw shape (`{ city: z.string() }`) stands for; keys whose type admits `undefined` are optional. */
type ShapeType<S, Side extends 'input' | 'output'> = {
  -readonly [K in keyof S as undefined extends SideOf<S[K], Side> ? never : K]: SideOf<S[K], Side>;
} & {
  -readonly [K in keyof S as undefined extends SideOf<S[K], Side> ? K : never]?: SideOf<S[K], Side>;
} extends infer O ? { [K in keyof O]: O[K] } : never;

type SideOf<S, Side extends 'input' | 'output'> = S extends StandardJsonSchemaV1<infer I, infer O> ? (Side extends 'input' ? I : O) : unknown;

/** The parsed type a schema argument yields: a library's output type, or the JSON Schema's type. */
export type InferSchemaOutput<S> = S extends StandardJsonSchemaV1<unknown, infer O>
  ? O
  : S extends { readonly [key: string]: StandardJsonSchemaV1 }
    ? ShapeType<S, 'output'>
  : S extends JsonSchemaObject
    ? FromJsonSchema<S>
    : unknown;

/** The type a value must have before parsing: a library's input type, or the JSON Schema's type. */
export type InferSchemaInput<S> = S extends StandardJsonSchemaV1<infer I, unknown>
  ? I
  : S extends { readonly [key: string]: StandardJsonSchemaV1 }
    ? ShapeType<S, 'input'>
  : S extends JsonSchemaObject
    ? FromJsonSchema<S>
    : unknown;
