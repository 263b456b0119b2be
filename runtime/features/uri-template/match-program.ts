import type { ExpressionPart, TemplatePart, VarSpec } from './parse.js';

/**
 * A URI template as a small NFA program: literals become CHAR instructions, variable values
 * runs of a character CLASS, and the choices between them SPLITs whose first branch is the
 * preferred one. Every loop of a program consumes a character, so following SPLIT, JMP and
 * SAVE instructions from any instruction ends after finitely many steps.
 */

// Instructions, stored in the parallel arrays `op`, `a`, `b` of a Program: CHAR a = char code;
// CLASS a = character class; SPLIT a = preferred branch, b = other; JMP a = target; SAVE a =
// capture slot; MATCH ends a successful thread.
export const CHAR = 0;
export const CLASS = 1;
export const SPLIT = 2;
export const JMP = 3;
export const SAVE = 4;
export const MATCH = 5;

/** Character classes of variable values. */
const VALUE = 0;
const VALUE_RESERVED = 1;

function classTable(extra: string): Uint8Array {
  const table = new Uint8Array(128);
  // Unreserved characters, plus '%' so that percent-encoded triplets are carried through.
  for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%' + extra) table[char.charCodeAt(0)] = 1;
  return table;
}

/** Membership of ASCII characters in each class; every non-ASCII code unit belongs to both. */
export const TABLES = [/* @__PURE__ */ classTable(''), /* @__PURE__ */ classTable(":/?#[]@!$&'()*+,;=")];

/** How a captured variable's text becomes its value. */
export interface Capture {
  readonly spec: VarSpec;
  readonly expression: ExpressionPart;
}

/** Whether the instruction at `pc` of `program` consumes the character `code` (a UTF-16 code unit). */
export function consumes(program: Program, pc: number, code: number): boolean {
  const op = program.op[pc];
  if (op === CHAR) return program.a[pc] === code;
  return op === CLASS && (code >= 128 || TABLES[program.a[pc]!]![code] === 1);
}

/** A template compiled to NFA instructions, with one pair of capture slots per variable. */
export class Program {
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

/** Compiles parsed template parts into a program. */
export function compileProgram(parts: readonly TemplatePart[]): Program {
  const program = new Program();
  for (const part of parts) {
    if (part.kind === 'literal') program.literal(part.text);
    else compileExpression(program, part);
  }
  program.emit(MATCH);
  return program;
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

