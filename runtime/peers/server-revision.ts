/**
 * Which revision a Server needs for an incoming request, decided from facts alone so that its
 * module can be loaded before the request is looked up and validated.
 */
import type { JSONRPCRequest } from '../core/jsonrpc.js';
import { isJsonObject } from '../core/jsonrpc.js';
import type { RevisionSet } from '../core/revision-set.js';
import { INITIALIZE_REQUEST } from '../core/special-methods.js';
import { declaredVersion } from '../era/meta.js';

/** What the choice depends on: the connection's era so far and the supported revisions of each era. */
export interface RevisionChoiceState {
  readonly era: 'stateful' | 'stateless' | undefined;
  readonly stateful: readonly string[];
  readonly stateless: readonly string[];
  readonly revisions: RevisionSet;
}

/**
 * The version an `initialize` will settle on, the supported stateless version a request names
 * in `_meta`, or the newest stateless one for a method only that era has (a discovery probe);
 * undefined when the request needs no other revision than the bound one.
 */
export function revisionForRequest(request: JSONRPCRequest, state: RevisionChoiceState): string | undefined {
  if (request.method === INITIALIZE_REQUEST) {
    if (state.stateful.length === 0) return undefined;
    return state.era === 'stateful' ? undefined : initializeVersion(request.params, state.stateful);
  }
  if (state.era === 'stateful' || state.stateless.length === 0) return undefined;
  const version = declaredVersion(request.params);
  if (version === undefined) {
    const onlyStateless = state.revisions.defines(request.method, 'stateless') && !state.revisions.defines(request.method, 'stateful');
    return state.era === undefined && onlyStateless ? state.stateless[state.stateless.length - 1] : undefined;
  }
  return state.stateless.includes(version) ? version : undefined;
}

/** The stateful version an `initialize` with `params` settles on: the one asked for if supported, else the newest. */
export function initializeVersion(params: unknown, stateful: readonly string[]): string {
  const requested = isJsonObject(params) ? params.protocolVersion : undefined;
  return typeof requested === 'string' && stateful.includes(requested) ? requested : stateful[stateful.length - 1]!;
}
