import type * as Stateful from '../../../generated/protocol/stateful.js';
import { changeNotifications } from '../../../generated/change-notifications.js';
import { Method } from '../../../generated/methods.js';
import type { Client, ListAllOptions } from '../client.js';
import { hasCapability, type CapabilityObject } from '../../era/capabilities.js';
import type { BothEras, ClientResult } from '../client-types.js';
import type { ProtocolTypesShape } from '../protocol-types.js';
import { asError } from '../../core/errors.js';
import type { JsonSchemaValidator } from '../../json-schema/types.js';
import type { RequestOptions } from '../../core/request-context.js';
import { assertToolResult } from './tool-output.js';

/** The lists a {@link ListCache} keeps, and the item type of each. */
export interface CachedLists {
  tools: Stateful.Tool;
  resources: Stateful.Resource;
  resourceTemplates: Stateful.ResourceTemplate;
  prompts: Stateful.Prompt;
}

/** A list a {@link ListCache} keeps. */
export type CachedListKind = keyof CachedLists;

/** The list request of each kind. */
function listMethods() {
  return {
    tools: Method.ToolsList,
    resources: Method.ResourcesList,
    resourceTemplates: Method.ResourcesTemplatesList,
    prompts: Method.PromptsList,
  } as const;
}

/** Built through a call marked pure, so that a bundle without a ListCache drops it. */
const METHOD = /* @__PURE__ */ listMethods();

/** Which cached lists each change notification makes stale, from the generated table. */
function staleAfter(): ReadonlyMap<string, readonly CachedListKind[]> {
  return new Map(
    Object.entries(changeNotifications)
      .filter(([, facts]) => facts.sender === 'server' && facts.key === null)
      .map(([notification, facts]) => [notification, (Object.keys(METHOD) as CachedListKind[]).filter((kind) => (facts.invalidates as readonly string[]).includes(METHOD[kind]))] as const)
      .filter(([, kinds]) => kinds.length > 0),
  );
}

/** Built through a call marked pure, like {@link METHOD}. */
const STALE_AFTER = /* @__PURE__ */ staleAfter();

/** Refetches in a row when changes keep arriving mid-fetch, before settling for the last result. */
const MAX_REFETCHES = 5;

/** Options of a {@link ListCache}. */
export interface ListCacheOptions {
  /** Refetch a list as soon as the server says it changed (default false: refetch on the next read). */
  readonly autoRefresh?: boolean;
  /** Called after a list changed: with the fresh items when auto-refreshing, with undefined otherwise. */
  readonly onchange?: <K extends CachedListKind>(kind: K, items: readonly CachedLists[K][] | undefined) => void;
  /** Receives failures of automatic refreshes, which have no caller to reject. */
  readonly onerror?: (error: Error) => void;
  /** Checks structured tool results in {@link ListCache.callTool} (default: the interpreting validator). */
  readonly validator?: JsonSchemaValidator;
  /** Options of the list requests (timeout, page limit). */
  readonly listOptions?: ListAllOptions;
}

interface ListState {
  items: unknown[] | undefined;
  generation: number;
  inflight: Promise<unknown[]> | undefined;
}

/**
 * Keeps the server's tool, resource, template and prompt lists, following every page, and
 * drops or (with `autoRefresh`) refetches a list when the server announces it changed. It
 * takes over the client's three list_changed notification handlers; use `onchange` to hear
 * about changes. A list the server has no capability for is empty.
 *
 * @example
 * ```ts
 * import { Client, ListCache, getDisplayName } from 'mcpgen';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 *
 * const lists = new ListCache(client, { autoRefresh: true, onchange: (kind) => console.log(`${kind} changed`) });
 * for (const tool of await lists.tools()) console.log(getDisplayName(tool));
 * const result = await lists.callTool({ name: 'forecast', arguments: { city: 'Oslo' } }); // structuredContent checked
 * ```
 */
export class ListCache<T extends ProtocolTypesShape = BothEras> {
  /** The lists and `tools/call` are methods of every revision, so any Client is used through the both-eras view. */
  private readonly client: Client;
  private readonly options: ListCacheOptions;
  private readonly states = new Map<CachedListKind, ListState>();

  constructor(client: Client<T>, options: ListCacheOptions = {}) {
    this.client = client as unknown as Client;
    this.options = options;
    for (const [method, kinds] of STALE_AFTER) {
      this.client.setNotificationHandler(method as keyof Stateful.ServerNotificationMap, () => {
        for (const kind of kinds) this.changed(kind);
      });
    }
  }

  tools(): Promise<Stateful.Tool[]> {
    return this.get('tools');
  }

  resources(): Promise<Stateful.Resource[]> {
    return this.get('resources');
  }

  resourceTemplates(): Promise<Stateful.ResourceTemplate[]> {
    return this.get('resourceTemplates');
  }

  prompts(): Promise<Stateful.Prompt[]> {
    return this.get('prompts');
  }

  /** The cached list, fetching every page when there is none. */
  async get<K extends CachedListKind>(kind: K): Promise<CachedLists[K][]> {
    const state = this.state(kind);
    if (state.items !== undefined) return [...state.items] as CachedLists[K][];
    return [...(await this.fetch(kind))] as CachedLists[K][];
  }

  /** The cached list without fetching; undefined when stale or never fetched. */
  peek<K extends CachedListKind>(kind: K): readonly CachedLists[K][] | undefined {
    return this.state(kind).items as CachedLists[K][] | undefined;
  }

  /** Fetches the list again now. */
  async refresh<K extends CachedListKind>(kind: K): Promise<CachedLists[K][]> {
    this.invalidate(kind);
    return [...(await this.fetch(kind))] as CachedLists[K][];
  }

  /** Forgets one list, or all of them. */
  invalidate(kind?: CachedListKind): void {
    for (const each of kind === undefined ? ([...this.states.keys()] as CachedListKind[]) : [kind]) {
      const state = this.state(each);
      state.items = undefined;
      state.generation += 1;
    }
  }

  /**
   * Calls a tool and checks a successful result's `structuredContent` against the tool's
   * `outputSchema` (as listed); a mismatch rejects with SdkError('INVALID_RESULT').
   */
  async callTool(params: Stateful.CallToolRequestParams, options?: RequestOptions): Promise<ClientResult<typeof Method.ToolsCall>> {
    const result = await this.client.callTool(params, options);
    const tool = (await this.get('tools')).find((candidate) => candidate.name === params.name);
    if (tool !== undefined) assertToolResult(tool, result, this.options.validator);
    return result;
  }

  /** Gives the list_changed notifications back to the client (they are then ignored). */
  dispose(): void {
    for (const method of STALE_AFTER.keys()) this.client.protocol.removeNotificationHandler(method);
  }

  private state(kind: CachedListKind): ListState {
    let state = this.states.get(kind);
    if (state === undefined) {
      state = { items: undefined, generation: 0, inflight: undefined };
      this.states.set(kind, state);
    }
    return state;
  }

  private changed(kind: CachedListKind): void {
    this.invalidate(kind);
    if (this.options.autoRefresh !== true) {
      this.options.onchange?.(kind, undefined);
      return;
    }
    this.fetch(kind).then(
      (items) => this.options.onchange?.(kind, items as CachedLists[typeof kind][]),
      (error: unknown) => this.options.onerror?.(asError(error)),
    );
  }

  private fetch(kind: CachedListKind): Promise<unknown[]> {
    const state = this.state(kind);
    if (state.inflight !== undefined) return state.inflight;
    const run = async (): Promise<unknown[]> => {
      // Before the handshake there are no capabilities yet; listAll then fails with NOT_CONNECTED.
      const capabilities = this.client.serverCapabilities;
      const gate = this.client.protocol.revision?.methods[METHOD[kind]]?.capability;
      if (capabilities !== undefined && gate != null && !hasCapability(capabilities as CapabilityObject, gate.path)) {
        state.items = [];
        return state.items;
      }
      let items: unknown[] = [];
      for (let attempt = 0; attempt < MAX_REFETCHES; attempt++) {
        const generation = state.generation;
        items = await this.client.listAll(METHOD[kind], undefined, this.options.listOptions);
        // A change announced while the pages were coming in may have split them; fetch again.
        if (generation === state.generation) break;
      }
      state.items = items;
      return items;
    };
    state.inflight = run().finally(() => {
      state.inflight = undefined;
    });
    return state.inflight;
  }
}
