import { expandParts, type UriVariableValue } from './expand.js';
import { compileMatcher, type Matcher } from './match.js';
import { parseTemplate, type TemplatePart } from './parse.js';

export type { UriVariableValue } from './expand.js';

/** Operators that write a prefix, so that their variables may be absent from a matching URI. */
type PrefixOperator = '#' | '.' | '/' | ';' | '?' | '&';

/** One variable of a template literal type: its name and how a match reports it. */
type VarOf<Spec extends string, Kind extends string> = Spec extends `${infer Name}*`
  ? { name: Name; kind: 'exploded' }
  : Spec extends `${infer Name}:${string}`
    ? { name: Name; kind: Kind }
    : { name: Spec; kind: Kind };
type ListOf<Body extends string, Kind extends string> = Body extends `${infer Head},${infer Rest}` ? VarOf<Head, Kind> | ListOf<Rest, Kind> : VarOf<Body, Kind>;
type ExpressionOf<Body extends string> = Body extends `${PrefixOperator}${infer List}`
  ? ListOf<List, 'optional'>
  : Body extends `+${infer List}`
    ? ListOf<List, 'required'>
    : ListOf<Body, 'required'>;
type VarsOf<T extends string> = T extends `${string}{${infer Body}}${infer Rest}` ? ExpressionOf<Body> | VarsOf<Rest> : never;
type NamesOf<T extends string, Kind extends string> = Extract<VarsOf<T>, { kind: Kind }>['name'];

/** The variable names of a URI template literal type: `UriTemplateVariableName<'/u/{id}{?q}'>` is `'id' | 'q'`. */
export type UriTemplateVariableName<T extends string> = string extends T ? string : VarsOf<T>['name'];

/**
 * What {@link UriTemplate.match} returns for a template literal type: variables of simple and
 * `+` expressions are always there (possibly empty), those behind an operator prefix
 * (`{?q}`, `{/seg}`, …) only when present, and exploded ones (`{list*}`) are lists.
 */
export type UriVariables<T extends string> = string extends T
  ? { readonly [name: string]: string | string[] | undefined }
  : { readonly [K in NamesOf<T, 'required'>]: string } & { readonly [K in NamesOf<T, 'optional'>]?: string } & {
      readonly [K in NamesOf<T, 'exploded'>]?: string[];
    };

/**
 * An RFC 6570 URI template (levels 1–4): expands variables into a URI, and matches a URI back
 * to the variables, in time linear in the URI's length (hostile input cannot make it
 * backtrack). Matching reads left to right (`{+path}` leaves a trailing `{?query}` or `.ext` to
 * what follows), ignores `:n` prefix limits, expects query variables in template order, and
 * returns exploded variables as lists (associative values are not recovered).
 *
 * @example
 * ```ts
 * import { UriTemplate } from 'mcpgen';
 *
 * const template = new UriTemplate('file:///{+path}{?rev}');
 * template.expand({ path: 'src/index.ts', rev: '42' }); // 'file:///src/index.ts?rev=42'
 * template.match('file:///docs/a%20b.md');               // { path: 'docs/a b.md' }
 * ```
 */
export class UriTemplate<T extends string = string> {
  /** The template text, as given. */
  readonly template: T;
  /** Every variable name, in order of first appearance. */
  readonly variableNames: readonly UriTemplateVariableName<T>[];
  private readonly parts: readonly TemplatePart[];
  private matcher: Matcher | undefined;

  /** Parses `template`; throws SyntaxError when it is malformed. */
  constructor(template: T) {
    this.template = template;
    this.parts = parseTemplate(template);
    const names = new Set<string>();
    for (const part of this.parts) if (part.kind === 'expression') for (const spec of part.variables) names.add(spec.name);
    this.variableNames = [...names] as UriTemplateVariableName<T>[];
  }

  /** True when `text` has at least one `{…}` expression, i.e. is a template rather than a URI. */
  static isTemplate(text: string): boolean {
    return /\{[^{}]+\}/.test(text);
  }

  /** Expands the template; undefined variables (and empty lists or objects) are left out. */
  expand(values: { readonly [K in UriTemplateVariableName<T>]?: UriVariableValue }): string {
    return expandParts(this.parts, values as Readonly<Record<string, UriVariableValue>>);
  }

  /** The variables of `uri` when it matches the whole template, otherwise null. */
  match(uri: string): UriVariables<T> | null {
    this.matcher ??= compileMatcher(this.parts);
    return this.matcher(uri) as UriVariables<T> | null;
  }

  toString(): string {
    return this.template;
  }
}
