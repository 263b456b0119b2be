import type { RevisionModule } from './contract.js';
import { eras, latestStatefulRevision, loaders, releasedRevisions } from '../../generated/index.js';
import type { Stateful } from '../../generated/latest.js';
import { revisionFacts, type RevisionFacts } from '../../generated/facts.js';
import { factsOfModule, RevisionSet, type RevisionEntry, type RevisionLoader } from './revision-set.js';

/**
 * Released revisions of the stateful era, oldest first: the versions a Client or Server
 * negotiates over `initialize` unless told otherwise. Comes from codegen's pin list, so a new
 * revision needs no edit here.
 */
export const statefulRevisions: readonly string[] = releasedRevisions.filter((revision) => eras[revision] === 'stateful');

/**
 * Released revisions of the stateless era (2026-07-28 on), oldest first: served per request
 * from the `_meta` every request carries, with no handshake.
 */
export const statelessRevisions: readonly string[] = releasedRevisions.filter((revision) => eras[revision] === 'stateless');

/**
 * The facts of a pinned revision that need no validator (era, batching, error codes, its
 * methods' kinds, directions and gates), without loading its module; throws for an unknown one.
 */
export function pinnedFacts(revision: string): RevisionFacts {
  const facts = Object.hasOwn(revisionFacts, revision) ? revisionFacts[revision] : undefined;
  if (facts === undefined) throw new RangeError(`Unknown MCP protocol revision ${JSON.stringify(revision)}`);
  return facts;
}

/** Modules the default loader has loaded, shared by every endpoint of the process. */
const loaded = new Map<string, RevisionModule>();

/**
 * The default loader: imports a pinned revision's generated module on first use (a separate
 * chunk for bundlers) and caches it for the process. Concurrent loads share one import, since
 * the module system imports a specifier once; a failed import is not cached, so it may succeed
 * later (a flaky network in a browser).
 */
export const defaultLoader: RevisionLoader = {
  async load(revision) {
    const done = loaded.get(revision);
    if (done !== undefined) return done;
    const load = Object.hasOwn(loaders, revision) ? loaders[revision as keyof typeof loaders] : undefined;
    if (load === undefined) throw new RangeError(`Unknown MCP protocol revision ${JSON.stringify(revision)}`);
    const module = await load();
    loaded.set(revision, module);
    return module;
  },
  loaded: (revision) => loaded.get(revision),
};

/**
 * The revisions an endpoint speaks, oldest first, as a {@link RevisionSet}. Without a `pool`
 * they are the generated pins (released ones only), known by their facts and loaded when first
 * negotiated; with one, the modules the caller supplies are used as they are and nothing is
 * loaded (how a program pins its revisions statically, or uses a freshly generated one).
 * `requested` narrows the choice; `allowed` names the eras.
 */
export function resolveRevisions(
  requested: readonly string[] | undefined,
  pool: readonly RevisionModule[] | undefined,
  allowed: readonly RevisionModule['era'][],
  loader: RevisionLoader = defaultLoader,
): RevisionSet {
  // The generated pins with the default loader make the same set for the same choice, and its
  // caches (loads, modules) are the process's anyway: one set per choice is shared, because an
  // endpoint is built per stateless HTTP request. Only choices naming each revision once are
  // shared, so the keys stay within the subsets of the released revisions (per list of eras).
  const shareable = pool === undefined && loader === defaultLoader && (requested === undefined || new Set(requested).size === requested.length);
  // Every released revision (what a Server or Client gets without options) needs no key built.
  const everything = shareable && requested === undefined && allowed.includes('stateful') && allowed.includes('stateless');
  if (everything && everyRevision !== undefined) return everyRevision;
  const key = shareable ? `${allowed.join()}|${requested === undefined ? '*' : [...requested].sort().join()}` : undefined;
  const shared = key === undefined ? undefined : sharedSets.get(key);
  if (shared !== undefined) return shared;
  const entries: RevisionEntry[] = pool === undefined
    ? releasedRevisions.map((revision) => ({ facts: pinnedFacts(revision) }))
    : pool.map((module) => ({ facts: factsOfModule(module), module }));
  const candidates = entries
    .filter((entry) => allowed.includes(entry.facts.era))
    .sort((a, b) => (a.facts.revision < b.facts.revision ? -1 : a.facts.revision > b.facts.revision ? 1 : 0));
  if (candidates.length === 0) throw new RangeError(`No ${allowed.join(' or ')} protocol revision is available`);
  const chosen = requested === undefined ? candidates : pick(requested, candidates, allowed);
  const set = new RevisionSet(chosen, pool === undefined ? loader : undefined);
  if (key !== undefined) sharedSets.set(key, set);
  if (everything) everyRevision = set;
  return set;
}

/** The shared set of every released revision of both eras, once made. */
let everyRevision: RevisionSet | undefined;

/** The sets {@link resolveRevisions} made from the generated pins with the default loader, by choice. */
const sharedSets = new Map<string, RevisionSet>();

function pick(requested: readonly string[], candidates: readonly RevisionEntry[], allowed: readonly RevisionModule['era'][]): RevisionEntry[] {
  if (requested.length === 0) throw new RangeError('At least one protocol revision must be supported');
  return [...requested].sort().map((revision) => {
    const entry = candidates.find((candidate) => candidate.facts.revision === revision);
    if (entry === undefined) {
      throw new RangeError(`Protocol revision ${revision} is not a released ${allowed.join(' or ')} revision (${candidates.map((c) => c.facts.revision).join(', ')})`);
    }
    return entry;
  });
}

/**
 * The error codes of the newest stateful revision, read from its facts so that code naming a
 * code (`INVALID_PARAMS`) loads no revision module.
 */
export const statefulErrorCodes = pinnedFacts(latestStatefulRevision).errorCodes as typeof Stateful.ErrorCode;
