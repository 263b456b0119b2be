import { CHAR, CLASS, JMP, MATCH, SAVE, SPLIT, TABLES, type Program } from './match-program.js';

/**
 * The general matcher: a Pike VM, in which every live thread advances one character at a time
 * and threads reaching the same instruction merge, so the work per character is bounded by the
 * program's size whatever the input. Threads keep priority order, so the winner is the match a
 * backtracking reading with the same preferences finds first. The two-pass matcher is faster
 * and gives the same answers; this one serves where that one's state table would grow too big.
 */

/** Counts the work a match did, for tests that check its complexity. */
export interface StepCounter {
  steps: number;
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

/**
 * Runs the Pike VM over `input`; the first thread (in priority order) to reach MATCH at the end
 * wins. Returns its capture positions (two slots per variable, -1 when unset), or null. `counter`
 * receives the number of instructions visited.
 */
export function runPikeVm(program: Program, input: string, counter?: StepCounter): number[] | null {
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
  let steps = 0;

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
        steps += 1;
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
    if (current.length === 0) break;
    generation += 1;
    // Every thread on the list already matched this character (checked when it was added).
    for (let index = 0; index < current.length; index++) add(following, current.pcs[index]! + 1, current.saved[index]!, position + 1);
    const swap = current;
    current = following;
    following = swap;
    following.length = 0;
  }
  if (counter !== undefined) counter.steps += steps;
  for (let index = 0; index < current.length; index++) {
    if (ops[current.pcs[index]!] === MATCH) return positions(program, current.saved[index]!);
  }
  return null;
}

function positions(program: Program, saved: Saved | null): number[] {
  const caps = new Array<number>(program.captures.length * 2).fill(-1);
  // The newest save of a slot comes first in the list; older ones are overwritten history.
  for (let node = saved; node !== null; node = node.previous) if (caps[node.slot] === -1) caps[node.slot] = node.position;
  return caps;
}
