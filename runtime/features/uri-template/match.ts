import type { ExpressionPart, TemplatePart, VarSpec } from './parse.js';

/**
 * Matching a URI back to template variables, in time linear in the URI's length.
 *
 * The template compiles to a small NFA program, which a Pike VM runs: every live thread
 * advances one character at a time and threads reaching the same instruction merge, so the
 * work per character is bounded by the program's size whatever the input. A backtracking
 * regex over the same pattern can be driven into exponential time by a hostile URI; this
 * cannot. Among several ways to match, threads keep priority order, so the result is the one a
 * left-to-right reading with fixed preferences gives: plain variables take as much as they can,
 * `+`/`#` variables as little as lets the rest match, and every variable of an expression is
 * tried before it is skipped.
 */

// Instructions, stored in the parallel arrays `op`, `a`, `b` of a Program: CHAR a = char code;
// CLASS a = character class; SPLIT a = preferred branch, b = other; JMP a = target; SAVE a =
// capture slot; MATCH ends a successful thread.
const CHAR = 0;
const CLASS = 1;
const SPLIT = 2;
const JMP = 3;
const SAVE = 4;
const MATCH = 5;

/** Character classes of variable values. */
const VALUE = 0;
const VALUE_RESERVED = 1;

function classTable(extra: string): Uint8Array {
  const table = new Uint8Array(128);
  // Unreserved characters, plus '%' so that percent-encoded triplets are carried through.
  for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%' + extra) table[char.charCodeAt(0)] = 1;
  return table;
}

const TABLES = [classTable(''), classTable(":/?#[]@!$&'()*+,;=")];

/** How a captured variable's text becomes its value. */
interface Capture {
  readonly spec: VarSpec;
  readonly expression: ExpressionPart;
}

/** A compiled matcher: run it on a URI to get the variables, or null when it does not match. */
export interface Matcher {
  (uri: string): Record<string, string | string[]> | null;
}

class Program {
  readonly op: number[] = [];
  readonly a: number[] = [];
  readonly b: number[] = [];
  readonly captures: Capture[] = [];

  emit(op: number, a = 0, b = 0): number {
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
    return this.op.length - 1;
  }

  get next(): number {
    return this.op.length;
  }

  literal(text: string): void {
    for (let i = 0; i < text.length; i++) this.emit(CHAR, text.charCodeAt(i));
  }

  /**
   * `item*`. Runs of plain value characters are greedy; runs that may contain reserved
   * characters (`+`, `#`) are lazy, taking only as much as lets the rest match, so that a
   * `{+path}` followed by `{?query}` or `.json` leaves those to what follows.
   */
  run(charClass: number): void {
    const split = this.emit(SPLIT);
    this.emit(CLASS, charClass);
    this.emit(JMP, split);
    const loop = split + 1;
    const exit = this.next;
    this.a[split] = charClass === VALUE_RESERVED ? exit : loop;
    this.b[split] = charClass === VALUE_RESERVED ? loop : exit;
  }

  /** `item (',' item)*`, the comma continuation lazy so that a following variable gets its turn. */
  commaList(charClass: number): void {
    const start = this.next;
    this.run(charClass);
    if (charClass === VALUE_RESERVED) return;
    const split = this.emit(SPLIT);
    this.a[split] = this.next + 2;
    this.b[split] = this.next;
    this.emit(CHAR, ','.charCodeAt(0));
    this.emit(JMP, start);
  }
}

/** Compiles parsed template parts into a matcher. */
export function compileMatcher(parts: readonly TemplatePart[]): Matcher {
  const program = new Program();
  for (const part of parts) {
    if (part.kind === 'literal') program.literal(part.text);
    else compileExpression(program, part);
  }
  program.emit(MATCH);
  return (uri) => run(program, uri);
}

/**
 * An expression matches an ordered subset of its variables: `first` before the first present
 * one and `separator` between present ones, exactly as expansion skips undefined variables.
 */
function compileExpression(program: Program, expression: ExpressionPart): void {
  const { rule, variables } = expression;
  const exits: number[] = [];
  const entries: number[] = [];
  const blockStarts: number[] = new Array<number>(variables.length);
  const pendingJumps: Array<{ at: number; to: number }> = [];
  // Entry: try each variable as the first present one, in order; an empty expansion comes last.
  for (let j = 0; j < variables.length; j++) {
    entries.push(program.emit(SPLIT));
    const prefix = program.next;
    program.literal(rule.first);
    pendingJumps.push({ at: program.emit(JMP), to: j });
    program.a[entries[j]!] = prefix;
    program.b[entries[j]!] = program.next;
  }
  exits.push(program.emit(JMP));
  for (let j = 0; j < variables.length; j++) {
    blockStarts[j] = program.next;
    compileVariable(program, expression, variables[j]!);
    for (let k = j + 1; k < variables.length; k++) {
      const split = program.emit(SPLIT);
      program.a[split] = program.next;
      program.literal(rule.separator);
      pendingJumps.push({ at: program.emit(JMP), to: k });
      program.b[split] = program.next;
    }
    exits.push(program.emit(JMP));
  }
  for (const jump of pendingJumps) program.a[jump.at] = blockStarts[jump.to]!;
  for (const exit of exits) program.a[exit] = program.next;
}

function compileVariable(program: Program, expression: ExpressionPart, spec: VarSpec): void {
  const { rule } = expression;
  const charClass = rule.allowReserved ? VALUE_RESERVED : VALUE;
  const slot = program.captures.length;
  program.captures.push({ spec, expression });
  const value = (): void => {
    if (spec.explode) program.run(charClass);
    else program.commaList(charClass);
  };
  const namedValue = (): void => {
    program.literal(spec.name);
    if (rule.ifEmpty === '=') {
      program.literal('=');
      value();
      return;
    }
    // `;name` stands for an empty value, `;name=value` for any other.
    const split = program.emit(SPLIT);
    program.a[split] = program.next;
    program.literal('=');
    value();
    program.b[split] = program.next;
  };
  if (!spec.explode) {
    if (rule.named) {
      program.literal(spec.name);
      if (rule.ifEmpty === '=') program.literal('=');
      else {
        // Capture starts after the optional '=' so the captured text is the bare value.
        const split = program.emit(SPLIT);
        program.a[split] = program.next;
        program.literal('=');
        program.b[split] = program.next;
      }
    }
    program.emit(SAVE, slot * 2);
    value();
    program.emit(SAVE, slot * 2 + 1);
    return;
  }
  // Exploded: capture the whole run of items; it is split on the separator afterwards.
  program.emit(SAVE, slot * 2);
  const loop = program.next;
  if (rule.named) namedValue();
  else value();
  const split = program.emit(SPLIT);
  program.a[split] = program.next;
  program.literal(rule.separator);
  program.emit(JMP, loop);
  program.b[split] = program.next;
  program.emit(SAVE, slot * 2 + 1);
}

/** Captures as a persistent list: a SAVE prepends one node instead of copying an array. */
interface Saved {
  readonly slot: number;
  readonly position: number;
  readonly previous: Saved | null;
}

/** One list of live threads: parallel arrays, so that no object is allocated per thread. */
class ThreadList {
  readonly pcs: Int32Array;
  readonly saved: Array<Saved | null>;
  length = 0;

  constructor(size: number) {
    this.pcs = new Int32Array(size);
    this.saved = new Array<Saved | null>(size).fill(null);
  }

  push(pc: number, saved: Saved | null): void {
    this.pcs[this.length] = pc;
    this.saved[this.length] = saved;
    this.length += 1;
  }
}

/** Runs the Pike VM over `input`; the first thread (in priority order) to reach MATCH at the end wins. */
function run(program: Program, input: string): Record<string, string | string[]> | null {
  const { op: ops, a: args, b: alternatives } = program;
  const size = ops.length;
  const end = input.length;
  let current = new ThreadList(size);
  let following = new ThreadList(size);
  const marks = new Int32Array(size).fill(-1);
  let generation = 0;
  // Each instruction is marked once per step, so the stack never holds more than `size` entries.
  const stackPcs = new Int32Array(size + 1);
  const stackSaved = new Array<Saved | null>(size + 1).fill(null);

  // Adds the thread at `pc` and everything reachable from it without consuming input. Threads
  // that cannot survive the next character (a CHAR that differs, a MATCH before the end) are
  // dropped here rather than carried one step.
  const add = (list: ThreadList, pc: number, saved: Saved | null, position: number): void => {
    const code = position < end ? input.charCodeAt(position) : -1;
    let depth = 0;
    stackPcs[depth] = pc;
    stackSaved[depth] = saved;
    depth += 1;
    while (depth > 0) {
      depth -= 1;
      let at = stackPcs[depth]!;
      let held = stackSaved[depth]!;
      for (;;) {
        if (marks[at] === generation) break;
        marks[at] = generation;
        const op = ops[at]!;
        if (op === JMP) {
          at = args[at]!;
        } else if (op === SPLIT) {
          // The second branch waits on the stack, so the first one is explored (and ranked) first.
          stackPcs[depth] = alternatives[at]!;
          stackSaved[depth] = held;
          depth += 1;
          at = args[at]!;
        } else if (op === SAVE) {
          held = { slot: args[at]!, position, previous: held };
          at += 1;
        } else {
          const alive = op === CHAR ? args[at] === code : op === CLASS ? code >= 128 || (code >= 0 && TABLES[args[at]!]![code] === 1) : position === end;
          if (alive) list.push(at, held);
          break;
        }
      }
    }
  };

  add(current, 0, null, 0);
  for (let position = 0; position < end; position++) {
    if (current.length === 0) return null;
    generation += 1;
    // Every thread on the list already matched this character (checked when it was added).
    for (let index = 0; index < current.length; index++) add(following, current.pcs[index]! + 1, current.saved[index]!, position + 1);
    const swap = current;
    current = following;
    following = swap;
    following.length = 0;
  }
  for (let index = 0; index < current.length; index++) {
    if (ops[current.pcs[index]!] === MATCH) return collect(program, input, current.saved[index]!);
  }
  return null;
}

function collect(program: Program, input: string, saved: Saved | null): Record<string, string | string[]> {
  const caps = new Array<number>(program.captures.length * 2).fill(-1);
  // The newest save of a slot comes first in the list; older ones are overwritten history.
  for (let node = saved; node !== null; node = node.previous) if (caps[node.slot] === -1) caps[node.slot] = node.position;
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
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
