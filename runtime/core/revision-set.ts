import type { MethodFact, RevisionFacts } from '../../generated/facts.js';
import type { CapabilityGate, Era, RevisionModule } from './contract.js';

/**
 * A revision's facts that need no validator: generated/facts.ts's, or read off a loaded module
 * (whose method entries carry the same members, without the stub names).
 */
export type RevisionFactsView = Pick<RevisionFacts, 'revision' | 'era' | 'batching' | 'errorCodes'> & {
  readonly methods: Readonly<Record<string, Pick<MethodFact, 'kind' | 'direction' | 'embedded' | 'capability'>>>;
};

/**
 * Loads revision modules by revision string. `loaded` answers synchronously for a module
 * already in memory, which keeps the per-message path free of awaits once a revision is loaded.
 */
export interface RevisionLoader {
  load(revision: string): Promise<RevisionModule>;
  loaded?(revision: string): RevisionModule | undefined;
}

/** One revision of a {@link RevisionSet}: its facts, and its module when the caller supplied it. */
export interface RevisionEntry {
  readonly facts: RevisionFactsView;
  readonly module?: RevisionModule | undefined;
}

/** The facts of a module the caller supplied (the module is loaded already, so they are read off it). */
export function factsOfModule(module: RevisionModule): RevisionFactsView {
  return { revision: module.revision, era: module.era, batching: module.batching, errorCodes: module.errorCodes, methods: module.methods };
}

/**
 * The revisions one endpoint speaks, oldest first: known by their facts from the start, their
 * modules loaded on first use (and then answered synchronously). Built from caller-supplied
 * modules it has no loader at all, so nothing can be imported at run time.
 */
export class RevisionSet {
  /** The revisions, oldest first. */
  readonly revisions: readonly string[];
  private readonly entries: ReadonlyMap<string, RevisionFactsView>;
  private readonly modules = new Map<string, RevisionModule>();
  /** The module {@link module} found last; modules are never unloaded, so it stays valid. */
  private last: RevisionModule | undefined;
  private readonly loads = new Map<string, Promise<RevisionModule>>();
  private readonly loader: RevisionLoader | undefined;
  /** {@link ofEra}'s answers, by era. */
  private readonly eras = new Map<Era, readonly string[]>();
  /**
   * {@link gateOf}'s answers, by method. Holds one entry per method a handler is registered
   * for, which is this process's code, never the peer's input.
   */
  private readonly gates = new Map<string, CapabilityGate | null>();

  constructor(entries: readonly RevisionEntry[], loader: RevisionLoader | undefined) {
    this.revisions = entries.map((entry) => entry.facts.revision);
    this.entries = new Map(entries.map((entry) => [entry.facts.revision, entry.facts]));
    for (const entry of entries) if (entry.module !== undefined) this.modules.set(entry.facts.revision, entry.module);
    this.loader = loader;
  }

  /** True when `revision` is one of this set's. */
  has(revision: string): boolean {
    return this.entries.has(revision);
  }

  /** The facts of a revision of this set; RangeError for any other. */
  facts(revision: string): RevisionFactsView {
    const facts = this.entries.get(revision);
    if (facts === undefined) throw new RangeError(`Protocol revision ${revision} is not supported here (${this.revisions.join(', ')})`);
    return facts;
  }

  /** The revisions of `era`, oldest first. */
  ofEra(era: Era): readonly string[] {
    let revisions = this.eras.get(era);
    if (revisions === undefined) {
      revisions = this.revisions.filter((revision) => this.entries.get(revision)!.era === era);
      this.eras.set(era, revisions);
    }
    return revisions;
  }

  /** The module of `revision` if it is in memory, else undefined (never loads). */
  module(revision: string): RevisionModule | undefined {
    // A connection asks for its one revision on every message: the last module found answers
    // without a map lookup.
    const last = this.last;
    if (last?.revision === revision) return last;
    let module = this.modules.get(revision);
    if (module !== undefined) this.last = module;
    if (module === undefined && this.entries.has(revision)) {
      module = this.loader?.loaded?.(revision);
      if (module !== undefined) {
        this.modules.set(revision, module);
        this.last = module;
      }
    }
    return module;
  }

  /** The module of `revision`, which must be in memory (see {@link ensure}). */
  loadedModule(revision: string): RevisionModule {
    const module = this.module(revision);
    if (module === undefined) throw new RangeError(`Protocol revision ${revision} is not loaded (${this.entries.has(revision) ? 'load it first' : 'not supported here'})`);
    return module;
  }

  /**
   * Undefined when `revision`'s module is in memory (the synchronous fast path), else the
   * Promise of its load. Rejects for a revision of no loader (caller-supplied modules only).
   */
  ensure(revision: string): Promise<RevisionModule> | undefined {
    if (this.module(revision) !== undefined) return undefined;
    return this.load(revision);
  }

  /** Loads `revision`'s module (at most once per set) and resolves with it. */
  load(revision: string): Promise<RevisionModule> {
    const module = this.module(revision);
    if (module !== undefined) return Promise.resolve(module);
    this.facts(revision);
    let pending = this.loads.get(revision);
    if (pending === undefined) {
      if (this.loader === undefined) return Promise.reject(new RangeError(`Protocol revision ${revision} has no module here`));
      pending = this.loader.load(revision).then(
        (loaded) => {
          this.modules.set(revision, loaded);
          this.loads.delete(revision);
          return loaded;
        },
        (error: unknown) => {
          this.loads.delete(revision);
          throw error;
        },
      );
      this.loads.set(revision, pending);
    }
    return pending;
  }

  /**
   * The gate of `method` in the first revision of this set that gates it (null when none does).
   * Kept per method: every Server asks it for each handler it registers, and a stateless HTTP
   * endpoint builds a Server per request from one shared set.
   */
  gateOf(method: string): CapabilityGate | null {
    let gate = this.gates.get(method);
    if (gate === undefined) {
      gate = null;
      for (const facts of this.entries.values()) {
        const found = facts.methods[method]?.capability;
        if (found) {
          gate = found;
          break;
        }
      }
      this.gates.set(method, gate);
    }
    return gate;
  }

  /** True when some revision of `era` (or of any era) defines `method`. */
  defines(method: string, era?: Era): boolean {
    for (const facts of this.entries.values()) {
      if ((era === undefined || facts.era === era) && Object.hasOwn(facts.methods, method)) return true;
    }
    return false;
  }
}
