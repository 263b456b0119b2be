/**
 * The change-notification table derived from the schema: a `<Noun>ListChangedNotification`
 * finds its list by definition name, whatever its method is called; a missing notification or
 * list leaves the list without one; the overlay and the capability checks are enforced.
 */
import { describe, expect, it } from 'vitest';
import { buildChangeNotifications, mergeChangeNotifications, type ChangeNotificationSpec } from '../../codegen/change-notifications.js';
import { emitChangeNotificationsFile } from '../../codegen/emit-facts.js';
import { buildTable } from '../../codegen/method-table.js';
import { buildModel, CodegenError, type RevisionModel } from '../../codegen/model.js';
import { applyPatches, loadPatches } from '../../codegen/patches.js';
import { readSchema, repoRoot, type JsonObject } from './spec-mirror.js';

type Defs = Record<string, JsonObject>;

/** A revision's patched schema, changed by `mutate`, as a model (named `2099-01-01`). */
function modelOf(revision: string, mutate: (defs: Defs) => void = () => {}): RevisionModel {
  const schema = applyPatches(revision, structuredClone(readSchema(revision)), loadPatches(revision, repoRoot)) as JsonObject;
  mutate((schema.$defs ?? schema.definitions) as Defs);
  return buildModel({ revision: '2099-01-01', url: 'https://example.invalid/schema.json', sha256: '0'.repeat(64), era: 'stateful', status: 'released' }, schema, []);
}

function removeUnionMember(defs: Defs, union: string, definition: string): void {
  const members = (defs[union]!.anyOf ?? defs[union]!.oneOf) as JsonObject[];
  members.splice(members.findIndex((member) => member.$ref === `#/$defs/${definition}` || member.$ref === `#/definitions/${definition}`), 1);
}

function rename(defs: Defs, from: string, to: string): void {
  const text = JSON.stringify(defs).replaceAll(`/${from}"`, `/${to}"`);
  const renamed = JSON.parse(text) as Defs;
  for (const key of Object.keys(defs)) delete defs[key];
  for (const [key, value] of Object.entries(renamed)) defs[key === from ? to : key] = value;
}

function tableOf(model: RevisionModel) {
  return buildTable(model);
}

function byNotification(specs: readonly ChangeNotificationSpec[]): Record<string, Omit<ChangeNotificationSpec, 'notification'>> {
  return Object.fromEntries(specs.map(({ notification, ...facts }) => [notification, facts]));
}

describe('buildChangeNotifications', () => {
  it('pairs every list_changed notification of 2025-11-25 with its lists and flag, and resources/updated with reads by uri', () => {
    const table = byNotification(tableOf(modelOf('2025-11-25')).changeNotifications);
    expect(table).toEqual({
      'notifications/prompts/list_changed': { sender: 'server', capability: ['prompts', 'listChanged'], invalidates: ['prompts/list'], key: null, subscriptionFilter: null },
      'notifications/resources/list_changed': { sender: 'server', capability: ['resources', 'listChanged'], invalidates: ['resources/list', 'resources/templates/list'], key: null, subscriptionFilter: null },
      'notifications/resources/updated': { sender: 'server', capability: ['resources', 'subscribe'], invalidates: ['resources/read'], key: 'uri', subscriptionFilter: null },
      'notifications/roots/list_changed': { sender: 'client', capability: ['roots', 'listChanged'], invalidates: ['roots/list'], key: null, subscriptionFilter: null },
      'notifications/tools/list_changed': { sender: 'server', capability: ['tools', 'listChanged'], invalidates: ['tools/list'], key: null, subscriptionFilter: null },
    });
  });

  it('reads the subscriptions/listen filter member from the SubscriptionFilter descriptions (2026-07-28)', () => {
    const table = byNotification(tableOf(modelOf('2026-07-28')).changeNotifications);
    expect(Object.fromEntries(Object.entries(table).map(([method, facts]) => [method, facts.subscriptionFilter]))).toEqual({
      'notifications/prompts/list_changed': 'promptsListChanged',
      'notifications/resources/list_changed': 'resourcesListChanged',
      'notifications/resources/updated': 'resourceSubscriptions',
      'notifications/tools/list_changed': 'toolsListChanged',
    });
  });

  it('leaves a list without a notification when the schema drops it', () => {
    const model = modelOf('2025-11-25', (defs) => {
      removeUnionMember(defs, 'ServerNotification', 'ToolListChangedNotification');
      delete defs.ToolListChangedNotification;
    });
    const specs = tableOf(model).changeNotifications;
    expect(specs.map((spec) => spec.notification)).not.toContain('notifications/tools/list_changed');
    expect(specs.flatMap((spec) => spec.invalidates)).not.toContain('tools/list');
  });

  it('follows a renamed notification method through its definition', () => {
    const model = modelOf('2025-11-25', (defs) => {
      ((defs.ToolListChangedNotification!.properties as Defs).method as JsonObject).const = 'notifications/tools/changed';
    });
    const table = byNotification(tableOf(model).changeNotifications);
    expect(table['notifications/tools/changed']).toEqual({ sender: 'server', capability: ['tools', 'listChanged'], invalidates: ['tools/list'], key: null, subscriptionFilter: null });
    expect(table['notifications/tools/list_changed']).toBeUndefined();
  });

  it('warns when a list_changed notification finds no list, and takes the lists from the overlay', () => {
    const model = modelOf('2025-11-25', (defs) => rename(defs, 'ListToolsRequest', 'ListAllToolsRequest'));
    const table = tableOf(model);
    expect(table.changeNotifications.map((spec) => spec.notification)).not.toContain('notifications/tools/list_changed');
    expect(table.warnings).toContain(
      'revision 2099-01-01: definition ToolListChangedNotification (notifications/tools/list_changed) invalidates no list: the revision has no ListToolsRequest; add the lists to LIST_CHANGED_OVERLAY',
    );
    const overlays = { listChanged: { ToolListChangedNotification: { alsoLists: ['ListAllToolsRequest'], cite: 'test' } }, itemUpdate: {} };
    const specs = buildChangeNotifications(model, table.methods, [], overlays);
    expect(specs.find((spec) => spec.notification === 'notifications/tools/list_changed')?.invalidates).toEqual(['tools/list']);
  });

  it('fails when the announcing flag is missing from the capabilities schema', () => {
    const model = modelOf('2025-11-25', (defs) => {
      delete ((defs.ServerCapabilities!.properties as Defs).tools!.properties as Defs).listChanged;
    });
    expect(() => tableOf(model)).toThrow(/definition ToolListChangedNotification \(notifications\/tools\/list_changed\) has no capability flag in ServerCapabilities/);
  });

  it('fails when an item update overlay names a params member the schema lacks', () => {
    const model = modelOf('2025-11-25');
    const overlays = { listChanged: {}, itemUpdate: { ResourceUpdatedNotification: { request: 'ReadResourceRequest', key: 'path', cite: 'test' } } };
    expect(() => buildChangeNotifications(model, tableOf(model).methods, [], overlays)).toThrow(CodegenError);
  });
});

describe('mergeChangeNotifications', () => {
  const tools = (capability: readonly string[], subscriptionFilter: string | null): ChangeNotificationSpec => ({
    notification: 'notifications/tools/list_changed',
    sender: 'server',
    capability,
    invalidates: ['tools/list'],
    key: null,
    subscriptionFilter,
  });

  it('lists the revisions of each notification and keeps the filter member of the revisions that have one', () => {
    const merged = mergeChangeNotifications([
      ['2025-11-25', [tools(['tools', 'listChanged'], null)]],
      ['2026-07-28', [tools(['tools', 'listChanged'], 'toolsListChanged')]],
    ]);
    expect(merged.get('notifications/tools/list_changed')).toMatchObject({ subscriptionFilter: 'toolsListChanged', revisions: ['2025-11-25', '2026-07-28'] });
  });

  it('fails when revisions disagree on a fact the one table holds', () => {
    expect(() => mergeChangeNotifications([
      ['2025-11-25', [tools(['tools', 'listChanged'], null)]],
      ['2026-07-28', [tools(['tools', 'changes'], null)]],
    ])).toThrow(/capability .*cannot hold both/);
  });

  it('emits an empty table when no revision has change notifications', () => {
    expect(emitChangeNotificationsFile([['2099-01-01', []]])).toContain('export const changeNotifications = {} as const');
  });
});
