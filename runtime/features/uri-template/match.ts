import type { TemplatePart } from './parse.js';
import { compileProgram, type Program } from './match-program.js';
import { runPikeVm, type StepCounter } from './pike-vm.js';
import { DEFAULT_MAX_STATES, TwoPassMatcher } from './two-pass.js';

/**
 * Matching a URI back to template variables, in time linear in the URI's length.
 *
 * The template compiles to a small NFA program (match-program.ts). The two-pass matcher runs it
 * with a table lookup or two per character; the Pike VM, which does work proportional to the
 * program's size per character, serves the rare template whose state table would exceed its
 * cap. Neither backtracks, so a hostile URI cannot drive matching into super-linear time. Among
 * several ways to match, the result is the one a left-to-right reading with fixed preferences
 * gives: plain variables take as much as they can, `+`/`#` variables as little as lets the rest
 * match, and every variable of an expression is tried before it is skipped.
 */

/** A compiled matcher: run it on a URI to get the variables, or null when it does not match. */
export interface Matcher {
  (uri: string, counter?: StepCounter): Record<string, string | string[]> | null;
}

/** Tuning of {@link compileMatcher}, for tests of the fallback. */
export interface MatcherOptions {
  /** Cap on the two-pass matcher's states; default 4,096. 0 uses the Pike VM only. */
  readonly maxStates?: number | undefined;
}

/** Compiles parsed template parts into a matcher. */
export function compileMatcher(parts: readonly TemplatePart[], options: MatcherOptions = {}): Matcher {
  // A leading and a trailing literal are compared as text, and the program matches what lies
  // between: a scheme like `file:///` would otherwise keep its characters' instructions live
  // wherever such a character occurs in the URI, and break up the runs the matcher skips over.
  const first = parts[0];
  const prefix = first?.kind === 'literal' ? first.text : '';
  const rest = prefix === '' ? parts : parts.slice(1);
  const last = rest[rest.length - 1];
  const suffix = last?.kind === 'literal' ? last.text : '';
  const middle = suffix === '' ? rest : rest.slice(0, -1);
  const program = compileProgram(middle);
  const maxStates = options.maxStates ?? DEFAULT_MAX_STATES;
  const fast = maxStates > 0 ? new TwoPassMatcher(program, maxStates) : undefined;
  return (uri, counter) => {
    if (uri.length < prefix.length + suffix.length || !uri.startsWith(prefix) || !uri.endsWith(suffix)) return null;
    const inner = uri.slice(prefix.length, uri.length - suffix.length);
    let caps = fast?.run(inner, counter);
    if (caps === undefined) caps = runPikeVm(program, inner, counter);
    return caps === null ? null : collect(program, inner, caps);
  };
}

function collect(program: Program, input: string, caps: readonly number[]): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  program.captures.forEach(({ spec, expression }, index) => {
    const start = caps[index * 2]!;
    const end = caps[index * 2 + 1]!;
    if (start < 0 || end < 0 || Object.hasOwn(values, spec.name)) return;
    const text = input.slice(start, end);
    if (!spec.explode) {
      values[spec.name] = decode(text);
      return;
    }
    const { rule } = expression;
    values[spec.name] = text.split(rule.separator).map((item) => {
      if (!rule.named) return decode(item);
      const equals = item.indexOf('=');
      return equals === -1 ? '' : decode(item.slice(equals + 1));
    });
  });
  return values;
}

function decode(text: string): string {
  // Most values carry no escape, and decoding would copy them for nothing.
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
