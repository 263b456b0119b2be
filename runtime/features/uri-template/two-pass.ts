import { CHAR, CLASS, consumes, JMP, MATCH, SAVE, SPLIT, type Program } from './match-program.js';
import type { StepCounter } from './pike-vm.js';

/**
 * The fast matcher, in two passes over the URI that each do a table lookup or two per character.
 *
 * Backward: for every position, the set of consuming instructions (CHAR, CLASS, MATCH) from
 * which the rest of the URI leads to MATCH. The set at a position follows from the set after it
 * and the character there alone, so the sets are the states of a deterministic automaton over the
 * reversed URI, built lazily and cached (characters are grouped first into the few classes the
 * program tells apart). Forward: one thread from the start, which at every SPLIT takes the
 * preferred branch when that branch reaches a live instruction, and the other otherwise. Each
 * choice is the one a backtracking reading would end up with, so the captures equal the Pike
 * VM's; nothing is ever retried.
 *
 * The automaton has at most `maxStates` states; a URI that needs more (only contrived templates
 * come near) makes `run` answer `undefined`, and the caller falls back to the Pike VM.
 */

/** Default cap on the cached states per template. */
export const DEFAULT_MAX_STATES = 4_096;

const UNKNOWN = -1;
/** The state with no live instruction: nothing before it can match either. */
const DEAD = 0;

/** A step of the forward thread between two consuming instructions. */
interface Move {
  readonly next: number;
  readonly saves: readonly number[];
}

export class TwoPassMatcher {
  private readonly program: Program;
  private readonly maxStates: number;
  /** 32-bit words per set of consuming instructions. */
  private readonly words: number;
  /** Consuming instruction → its bit; -1 for the others. */
  private readonly bit: Int32Array;
  /** Per instruction, the consuming instructions reachable from it without consuming (flat, `words` each). */
  private readonly closure: Uint32Array;
  /** ASCII code → character class; non-ASCII code units are `otherClass` unless listed in `highClasses`. */
  private readonly asciiClass = new Uint8Array(128);
  private readonly highClasses = new Map<number, number>();
  private readonly otherClass: number;
  /** Per character class, the consuming instructions (other than MATCH) that take it: pc list. */
  private readonly takers: number[][] = [];
  /** Sets of the states, flat (`words` each); state 0 is DEAD, state 1 the set at the end (MATCH). */
  private sets: Uint32Array;
  private readonly index = new Map<string, number>();
  private stateCount = 0;
  /** Per state, which ASCII characters leave it unchanged (built on its first self-transition). */
  private readonly stays: Array<Uint8Array | undefined> = [];
  /** Memoised forward moves, and their index by decisions × instruction (UNKNOWN until computed). */
  private readonly moves: Move[] = [];
  private moveIds = new Int32Array(0);
  /** Per state, the id of its SPLIT decisions; per id, 1 for each SPLIT whose preferred branch is live. */
  private readonly decisionsOf: number[] = [];
  private readonly decisions: Uint8Array[] = [];
  private readonly decisionIndex = new Map<string, number>();
  /** state × class → state, UNKNOWN until computed. */
  private transitions: Int32Array;

  constructor(program: Program, maxStates = DEFAULT_MAX_STATES) {
    this.program = program;
    this.maxStates = Math.min(maxStates, 0xffff);
    const size = program.op.length;
    this.bit = new Int32Array(size).fill(-1);
    let consuming = 0;
    for (let pc = 0; pc < size; pc++) {
      const op = program.op[pc];
      if (op === CHAR || op === CLASS || op === MATCH) this.bit[pc] = consuming++;
    }
    this.words = Math.max(1, Math.ceil(consuming / 32));
    this.closure = new Uint32Array(size * this.words);
    for (let pc = 0; pc < size; pc++) this.fillClosure(pc);
    this.otherClass = this.buildClasses();
    const classes = this.takers.length;
    this.sets = new Uint32Array(16 * this.words);
    this.transitions = new Int32Array(16 * classes).fill(UNKNOWN);
    this.intern(new Uint32Array(this.words));
    const end = new Uint32Array(this.words);
    const matchBit = this.bit[size - 1]!;
    setBit(end, matchBit);
    this.intern(end);
  }

  /**
   * The capture positions of the match (two slots per variable, -1 when unset), null when `input`
   * does not match, or undefined when the state cap was reached. `counter` receives one step per
   * character of each pass, plus each instruction the forward thread follows and each state built.
   */
  run(input: string, counter?: StepCounter): number[] | null | undefined {
    const length = input.length;
    const classes = this.takers.length;
    const { asciiClass, highClasses, otherClass } = this;
    const high = highClasses.size > 0;
    // What the forward thread needs of the states, as segments of equal decisions, latest first:
    // segment i starts at segmentFrom[i].
    let segmentFrom = new Int32Array(64);
    let segmentDecisions = new Uint16Array(64);
    let segments = 0;
    const decisionsOf = this.decisionsOf;
    let transitions = this.transitions;
    let state = 1;
    let decisions = decisionsOf[state]!;
    let built = this.stateCount;
    for (let position = length - 1; position >= 0; position--) {
      const code = input.charCodeAt(position);
      const cls = code < 128 ? asciiClass[code]! : high ? (highClasses.get(code) ?? otherClass) : otherClass;
      let next = transitions[state * classes + cls]!;
      if (next === UNKNOWN) {
        next = this.step(state, cls);
        if (next === UNKNOWN) return undefined;
        transitions = this.transitions;
      }
      if (next === state) {
        // A state that keeps itself over a character mostly keeps itself over a long run of them.
        const stay = this.stays[state] ?? this.stayTable(state);
        if (stay === undefined) return undefined;
        transitions = this.transitions;
        while (position > 0) {
          const before = input.charCodeAt(position - 1);
          if (before < 128 ? stay[before] !== 1 : high || stay[128] !== 1) break;
          position -= 1;
        }
      } else {
        state = next;
        if (state === DEAD) {
          if (counter !== undefined) counter.steps += length - position + this.stateCount - built;
          return null;
        }
        if (decisionsOf[state] !== decisions) {
          if (segments === segmentFrom.length) {
            segmentFrom = grown(segmentFrom, new Int32Array(segments * 2));
            segmentDecisions = grown(segmentDecisions, new Uint16Array(segments * 2));
          }
          segmentFrom[segments] = position + 1;
          segmentDecisions[segments] = decisions;
          segments += 1;
          decisions = decisionsOf[state]!;
        }
      }
    }
    if (segments === segmentFrom.length) {
      segmentFrom = grown(segmentFrom, new Int32Array(segments + 1));
      segmentDecisions = grown(segmentDecisions, new Uint16Array(segments + 1));
    }
    segmentFrom[segments] = 0;
    segmentDecisions[segments] = decisions;
    segments += 1;
    built = this.stateCount - built;

    // Forward: one thread, which stays on a looping instruction to the end of a segment at once.
    const { words, closure, sets } = this;
    let steps = length + built;
    let segment = segments - 1;
    const base = state * words;
    let startLive = false;
    for (let word = 0; word < words && !startLive; word++) startLive = (closure[word]! & sets[base + word]!) !== 0;
    if (!startLive) return null;
    const caps = new Array<number>(this.program.captures.length * 2).fill(-1);
    let position = 0;
    let move = this.follow(0, segmentDecisions[segment]!);
    for (;;) {
      steps += 1;
      for (const slot of move.saves) caps[slot] = position;
      const pc = move.next;
      if (this.program.op[pc] === MATCH) break;
      if (position === length || !consumes(this.program, pc, input.charCodeAt(position))) return null;
      position += 1;
      while (segment > 0 && segmentFrom[segment - 1]! <= position) segment -= 1;
      move = this.follow(pc + 1, segmentDecisions[segment]!);
      if (move.next === pc && move.saves.length === 0 && segment > 0) {
        // Every later position of this segment leads back here: take them all.
        position = Math.max(position, segmentFrom[segment - 1]! - 1);
      }
    }
    if (counter !== undefined) counter.steps += steps;
    return position === length ? caps : null;
  }

  /**
   * Where the thread goes from `pc` under the SPLIT decisions `decisions`: the next consuming
   * instruction, and the slots saved on the way.
   */
  private follow(pc: number, decisions: number): Move {
    const key = decisions * this.program.op.length + pc;
    const known = this.moveIds[key]!;
    if (known !== UNKNOWN) return this.moves[known]!;
    const { op: ops, a: args, b: alternatives } = this.program;
    const preferred = this.decisions[decisions]!;
    const saves: number[] = [];
    let at = pc;
    for (;;) {
      const op = ops[at]!;
      if (op === JMP) at = args[at]!;
      else if (op === SPLIT) at = preferred[at] === 1 ? args[at]! : alternatives[at]!;
      else if (op === SAVE) {
        saves.push(args[at]!);
        at += 1;
      } else break;
    }
    const move = { next: at, saves };
    this.moveIds[key] = this.moves.length;
    this.moves.push(move);
    return move;
  }

  /**
   * The id of the SPLIT decisions a live set makes: per SPLIT, whether its preferred branch
   * reaches a live instruction. States that differ only where no SPLIT looks share an id, so
   * the forward thread sees long segments where the states alternate.
   */
  private decisionsFor(set: Uint32Array): number {
    const { program, words, closure } = this;
    const preferred = new Uint8Array(program.op.length);
    for (let pc = 0; pc < program.op.length; pc++) {
      if (program.op[pc] !== SPLIT) continue;
      let live = false;
      for (let word = 0, at = program.a[pc]! * words; word < words && !live; word++) live = (closure[at + word]! & set[word]!) !== 0;
      preferred[pc] = live ? 1 : 0;
    }
    const key = preferred.join('');
    let id = this.decisionIndex.get(key);
    if (id === undefined) {
      id = this.decisions.length;
      this.decisions.push(preferred);
      this.decisionIndex.set(key, id);
      const moveIds = new Int32Array(this.decisions.length * program.op.length).fill(UNKNOWN);
      moveIds.set(this.moveIds);
      this.moveIds = moveIds;
    }
    return id;
  }

  /**
   * Per ASCII code (and at 128, for the non-ASCII code units no literal names), 1 when the
   * character leaves `state` as it is, building the state's whole row of transitions; undefined
   * when that reaches the state cap.
   */
  private stayTable(state: number): Uint8Array | undefined {
    const classes = this.takers.length;
    const stay = new Uint8Array(129);
    for (let code = 0; code <= 128; code++) {
      const cls = code < 128 ? this.asciiClass[code]! : this.otherClass;
      let next = this.transitions[state * classes + cls]!;
      if (next === UNKNOWN) next = this.step(state, cls);
      if (next === UNKNOWN) return undefined;
      stay[code] = next === state ? 1 : 0;
    }
    this.stays[state] = stay;
    return stay;
  }

  /** The state before a character of class `cls` that is followed by `state`; UNKNOWN past the cap. */
  private step(state: number, cls: number): number {
    const { words, closure, sets, bit } = this;
    const next = new Uint32Array(words);
    const base = state * words;
    for (const pc of this.takers[cls]!) {
      let live = false;
      for (let word = 0, at = (pc + 1) * words; word < words && !live; word++) live = (closure[at + word]! & sets[base + word]!) !== 0;
      if (live) setBit(next, bit[pc]!);
    }
    const target = this.intern(next);
    if (target !== UNKNOWN) this.transitions[state * this.takers.length + cls] = target;
    return target;
  }

  /** The id of the state with set `set`, adding it when new; UNKNOWN when the cap is reached. */
  private intern(set: Uint32Array): number {
    const key = set.join(',');
    const known = this.index.get(key);
    if (known !== undefined) return known;
    if (this.stateCount >= this.maxStates) return UNKNOWN;
    const id = this.stateCount++;
    const { words } = this;
    if ((id + 1) * words > this.sets.length) {
      const sets = new Uint32Array(this.sets.length * 2);
      sets.set(this.sets);
      this.sets = sets;
      const transitions = new Int32Array(this.transitions.length * 2).fill(UNKNOWN);
      transitions.set(this.transitions);
      this.transitions = transitions;
    }
    this.sets.set(set, id * words);
    this.index.set(key, id);
    this.decisionsOf.push(this.decisionsFor(set));
    return id;
  }

  /** Fills the closure of `pc`: the consuming instructions reached through JMP, SPLIT and SAVE. */
  private fillClosure(pc: number): void {
    const { program, words, closure, bit } = this;
    const seen = new Set<number>();
    const stack = [pc];
    const target = pc * words;
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (seen.has(at)) continue;
      seen.add(at);
      const op = program.op[at];
      if (op === JMP) stack.push(program.a[at]!);
      else if (op === SPLIT) stack.push(program.a[at]!, program.b[at]!);
      else if (op === SAVE) stack.push(at + 1);
      else setBit(closure, bit[at]!, target);
    }
  }

  /**
   * Groups characters into classes that every instruction treats alike: ASCII characters by the
   * instructions that take them, and non-ASCII code units all together except those a literal
   * names. Returns the class of the other non-ASCII code units.
   */
  private buildClasses(): number {
    const { program } = this;
    const byTakers = new Map<string, number>();
    const classify = (code: number): number => {
      const takers: number[] = [];
      for (let pc = 0; pc < program.op.length; pc++) if (program.op[pc] !== MATCH && consumes(program, pc, code)) takers.push(pc);
      const key = takers.join(',');
      let cls = byTakers.get(key);
      if (cls === undefined) {
        cls = this.takers.length;
        this.takers.push(takers);
        byTakers.set(key, cls);
      }
      return cls;
    };
    for (let code = 0; code < 128; code++) this.asciiClass[code] = classify(code);
    for (let pc = 0; pc < program.op.length; pc++) {
      const code = program.a[pc]!;
      if (program.op[pc] === CHAR && code >= 128 && !this.highClasses.has(code)) this.highClasses.set(code, -1);
    }
    // A code unit no literal names; 0xFFFF is a noncharacter, so no literal names it either.
    const other = classify(0xffff);
    for (const code of this.highClasses.keys()) this.highClasses.set(code, classify(code));
    return other;
  }
}

/** Sets bit `index` of the set stored in `words` from `offset` on. */
function setBit(words: Uint32Array, index: number, offset = 0): void {
  const at = offset + (index >>> 5);
  words[at] = words[at]! | (1 << (index & 31));
}

/** `into`, holding a copy of `from` at its start. */
function grown<T extends Int32Array | Uint16Array>(from: T, into: T): T {
  into.set(from);
  return into;
}
