/**
 * Which notification makes which cached result stale, derived per revision from the schema:
 * a `<Noun>ListChangedNotification` invalidates `List<Noun>sRequest` (ToolListChangedNotification
 * ↔ ListToolsRequest), announced by the `listChanged` flag its capability gate names
 * (ServerCapabilities.tools.listChanged); the `subscriptions/listen` filter member whose
 * description links the notification opts in to it. Pairings the names do not give come from
 * LIST_CHANGED_OVERLAY and ITEM_UPDATE_OVERLAY, keyed by definition.
 */
import type { ChangeNotification } from './templates/contract.js';
import type { MethodSpec } from './method-spec.js';
import { CodegenError, type RevisionModel } from './model.js';
import { ITEM_UPDATE_OVERLAY, LIST_CHANGED_OVERLAY, type ItemUpdateOverlayEntry, type ListChangedOverlayEntry } from './overlay.js';
import { isSchemaObject, refTarget, type Schema } from './schema-walk.js';

/** One revision's facts about one change notification (no `revisions` yet). */
export type ChangeNotificationSpec = Omit<ChangeNotification, 'revisions'> & { readonly notification: string };

/** The overlays the derivation reads; tests pass their own. */
export interface ChangeOverlays {
  readonly listChanged: Readonly<Record<string, ListChangedOverlayEntry>>;
  readonly itemUpdate: Readonly<Record<string, ItemUpdateOverlayEntry>>;
}

const DEFAULT_OVERLAYS: ChangeOverlays = { listChanged: LIST_CHANGED_OVERLAY, itemUpdate: ITEM_UPDATE_OVERLAY };

/** Whether `path` is a property chain of the side's capabilities definition. */
function capabilityPathExists(model: RevisionModel, side: 'client' | 'server', path: readonly string[]): boolean {
  let node: Schema | undefined = model.definitions[side === 'client' ? 'ClientCapabilities' : 'ServerCapabilities'];
  for (const segment of path) {
    const target = isSchemaObject(node) ? refTarget(node.$ref) : null;
    if (target !== null) node = model.definitions[target];
    const props = isSchemaObject(node) ? node.properties : undefined;
    const next = isSchemaObject(props) ? props[segment] : undefined;
    if (!isSchemaObject(next)) return false;
    node = next;
  }
  return true;
}

/** The SubscriptionFilter member whose description links `definition` (`{@link ToolListChangedNotification…}`). */
function filterMember(model: RevisionModel, definition: string): string | null {
  const props = model.definitions.SubscriptionFilter?.properties;
  if (!isSchemaObject(props)) return null;
  const members = Object.entries(props).filter(([, value]) => isSchemaObject(value) && typeof value.description === 'string' && value.description.includes(`{@link ${definition}`));
  if (members.length > 1) throw new CodegenError(`revision ${model.pin.revision}: definition SubscriptionFilter links ${definition} from ${members.length} members`);
  return members[0]?.[0] ?? null;
}

/** The params definition's property names of a method, or of its inline params. */
function paramsProperties(model: RevisionModel, spec: MethodSpec): Set<string> {
  const schema = spec.paramsDefinition !== null ? model.definitions[spec.paramsDefinition] : spec.paramsSchema;
  const props = isSchemaObject(schema) ? schema.properties : undefined;
  return new Set(isSchemaObject(props) ? Object.keys(props) : []);
}

function senderOf(model: RevisionModel, spec: MethodSpec): 'client' | 'server' {
  if (spec.direction === 'both') throw new CodegenError(`revision ${model.pin.revision}: definition ${spec.definition} is a change notification both peers send`);
  return spec.direction === 'server-to-client' ? 'server' : 'client';
}

/**
 * The flag that announces a change notification, in its sender's capabilities. A list's flag
 * is `listChanged` inside the capability its list request needs (ListToolsRequest needs
 * `tools`, so ServerCapabilities.tools.listChanged); the notification's own gate, where it has
 * one, must agree. Other notifications use their gate.
 */
function announcingFlag(model: RevisionModel, spec: MethodSpec, sender: 'client' | 'server', list: MethodSpec | undefined): readonly string[] {
  const side = sender === 'client' ? 'ClientCapabilities' : 'ServerCapabilities';
  const gate = spec.capability?.holder === 'sender' ? spec.capability.path : null;
  const derived = list?.capability?.holder === 'receiver' ? [...list.capability.path, 'listChanged'] : null;
  if (derived !== null && gate !== null && derived.join('.') !== gate.join('.')) {
    throw new CodegenError(`revision ${model.pin.revision}: definition ${spec.definition} (${spec.method}) is gated by ${gate.join('.')} in CAPABILITY_OVERLAY, but its list ${list!.definition} announces changes with ${derived.join('.')}`);
  }
  const flag = derived ?? gate;
  if (flag === null || !capabilityPathExists(model, sender, flag)) {
    throw new CodegenError(`revision ${model.pin.revision}: definition ${spec.definition} (${spec.method}) has no capability flag in ${side}${flag === null ? '' : ` (${flag.join('.')})`}; set its gate in CAPABILITY_OVERLAY`);
  }
  return flag;
}

/**
 * The change notifications of one revision, sorted by method. `warnings` receives list_changed
 * notifications that invalidate no list of the revision.
 */
export function buildChangeNotifications(model: RevisionModel, methods: readonly MethodSpec[], warnings: string[], overlays: ChangeOverlays = DEFAULT_OVERLAYS): ChangeNotificationSpec[] {
  const byDefinition = new Map(methods.map((spec) => [spec.definition, spec]));
  const out: ChangeNotificationSpec[] = [];
  for (const spec of methods) {
    if (spec.kind !== 'notification') continue;
    const noun = /^(.+)ListChangedNotification$/.exec(spec.definition)?.[1];
    const update = overlays.itemUpdate[spec.definition];
    if (noun === undefined && update === undefined) continue;
    const facts = (list?: MethodSpec) => {
      const sender = senderOf(model, spec);
      return { notification: spec.method, sender, capability: announcingFlag(model, spec, sender, list), subscriptionFilter: filterMember(model, spec.definition) };
    };
    if (noun !== undefined) {
      const named = [`List${noun}sRequest`, `List${noun}Request`].filter((name) => byDefinition.get(name)?.kind === 'request').slice(0, 1);
      const extra = (overlays.listChanged[spec.definition]?.alsoLists ?? []).filter((name) => byDefinition.get(name)?.kind === 'request');
      const lists = [...named, ...extra].map((name) => byDefinition.get(name)!);
      if (lists.length === 0) {
        warnings.push(`revision ${model.pin.revision}: definition ${spec.definition} (${spec.method}) invalidates no list: the revision has no List${noun}sRequest; add the lists to LIST_CHANGED_OVERLAY`);
        continue;
      }
      out.push({ ...facts(lists[0]), invalidates: lists.map((list) => list.method).sort(), key: null });
      continue;
    }
    const request = byDefinition.get(update!.request);
    if (request === undefined || request.kind !== 'request') continue;
    for (const [method, props] of [[spec, paramsProperties(model, spec)], [request, paramsProperties(model, request)]] as const) {
      if (!props.has(update!.key)) {
        throw new CodegenError(`revision ${model.pin.revision}: definition ${method.definition} has no params member ${update!.key}, which ITEM_UPDATE_OVERLAY names for ${spec.definition}`);
      }
    }
    out.push({ ...facts(), invalidates: [request.method], key: update!.key });
  }
  return out.sort((a, b) => (a.notification < b.notification ? -1 : 1));
}

/**
 * One revision-independent table from the revisions' tables, oldest revision first. The facts
 * of a notification must agree across revisions (except the filter member, which only the
 * stateless revisions have); codegen fails otherwise, since the runtime reads one table.
 */
export function mergeChangeNotifications(perRevision: ReadonlyArray<readonly [string, readonly ChangeNotificationSpec[]]>): Map<string, ChangeNotification> {
  const merged = new Map<string, ChangeNotification>();
  for (const [revision, specs] of perRevision) {
    for (const { notification, ...facts } of specs) {
      const seen = merged.get(notification);
      if (seen === undefined) {
        merged.set(notification, { ...facts, revisions: [revision] });
        continue;
      }
      for (const field of ['sender', 'capability', 'invalidates', 'key'] as const) {
        if (JSON.stringify(seen[field]) !== JSON.stringify(facts[field])) {
          throw new CodegenError(`revision ${revision}: ${notification} has ${field} ${JSON.stringify(facts[field])}, other revisions ${JSON.stringify(seen[field])}; the runtime's one change-notification table cannot hold both`);
        }
      }
      if (seen.subscriptionFilter !== null && facts.subscriptionFilter !== null && seen.subscriptionFilter !== facts.subscriptionFilter) {
        throw new CodegenError(`revision ${revision}: ${notification} has subscription filter ${facts.subscriptionFilter}, other revisions ${seen.subscriptionFilter}`);
      }
      merged.set(notification, { ...seen, subscriptionFilter: seen.subscriptionFilter ?? facts.subscriptionFilter, revisions: [...seen.revisions, revision] });
    }
  }
  return new Map([...merged].sort(([a], [b]) => (a < b ? -1 : 1)));
}
