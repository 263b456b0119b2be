/**
 * Revision-independent facts in small modules the runtime imports without loading any
 * revision module: every method name as a constant, and the change-notification table.
 */
import { mergeChangeNotifications, type ChangeNotificationSpec } from './change-notifications.js';
import type { MethodSpec } from './method-spec.js';
import { CodegenError } from './model.js';

function q(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * The constant name of a method: its segments split at `/`, `_` and `-`, each capitalised and
 * joined (`tools/call` → `ToolsCall`, `notifications/tools/list_changed` →
 * `NotificationsToolsListChanged`, `sampling/createMessage` → `SamplingCreateMessage`,
 * `ui/open-link` → `UiOpenLink`).
 */
export function methodConstName(method: string): string {
  const name = method
    .split(/[/_-]/)
    .filter((part) => part !== '')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new CodegenError(`method ${JSON.stringify(method)} gives no identifier for its constant (${JSON.stringify(name)})`);
  return name;
}

/** Where a method is defined: revision ids, or `extension <id>`. */
export interface MethodSource {
  readonly label: string;
  readonly methods: readonly MethodSpec[];
}

/** `methods.ts`: one constant per method name of every pinned revision and extension. */
export function emitMethodNamesFile(sources: readonly MethodSource[]): string {
  const byMethod = new Map<string, { kind: MethodSpec['kind']; labels: string[] }>();
  for (const source of sources) {
    for (const spec of source.methods) {
      const entry = byMethod.get(spec.method) ?? { kind: spec.kind, labels: [] };
      entry.labels.push(source.label);
      byMethod.set(spec.method, entry);
    }
  }
  const byName = new Map<string, string>();
  const rows: string[] = [];
  const nameHeaders = nameHeadersOf(sources);
  for (const method of [...byMethod.keys()].sort()) {
    const name = methodConstName(method);
    const clash = byName.get(name);
    if (clash !== undefined) throw new CodegenError(`methods ${JSON.stringify(clash)} and ${JSON.stringify(method)} both give the constant name ${name}`);
    byName.set(name, method);
    const { kind, labels } = byMethod.get(method)!;
    rows.push(`  /** \`${method}\`: ${kind} in ${labels.join(', ')}. */`, `  ${name}: ${q(method)},`);
  }
  return [
    `/**`,
    ` * Every method name of the pinned revisions and extensions, named after the method`,
    ` * (\`tools/call\` → \`Method.ToolsCall\`). Importing it loads no revision module.`,
    ` */`,
    `export const Method = {`,
    ...rows,
    `} as const;`,
    '',
    `/** A method name of some pinned revision or extension. */`,
    `export type MethodName = (typeof Method)[keyof typeof Method];`,
    '',
    `/**`,
    ` * The methods whose stateless-era Streamable HTTP request carries \`Mcp-Name\`, with the params`,
    ` * member the header repeats (MethodInfo.nameHeader, the same wherever the method has one): a`,
    ` * server transport reads it before the request's revision is bound.`,
    ` */`,
    ...(nameHeaders.size === 0
      ? [`export const nameHeaders: Readonly<Record<string, string>> = {};`]
      : [`export const nameHeaders: Readonly<Record<string, string>> = {`, ...[...nameHeaders].map(([method, member]) => `  ${q(method)}: ${q(member)},`), `};`]),
    '',
  ].join('\n');
}

/** The name header member of every method that has one; throws when two sources disagree. */
function nameHeadersOf(sources: readonly MethodSource[]): Map<string, string> {
  const members = new Map<string, { member: string; label: string }>();
  for (const source of sources) {
    for (const spec of source.methods) {
      if (spec.nameHeader === null) continue;
      const known = members.get(spec.method);
      if (known !== undefined && known.member !== spec.nameHeader) {
        throw new CodegenError(`method ${spec.method} carries params.${known.member} in Mcp-Name in ${known.label} but params.${spec.nameHeader} in ${source.label}`);
      }
      members.set(spec.method, { member: spec.nameHeader, label: source.label });
    }
  }
  return new Map([...members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([method, { member }]) => [method, member]));
}

/** `change-notifications.ts`: the notifications that make cached results stale, across revisions. */
export function emitChangeNotificationsFile(perRevision: ReadonlyArray<readonly [string, readonly ChangeNotificationSpec[]]>): string {
  const merged = mergeChangeNotifications(perRevision);
  const list = (items: readonly string[]) => `[${items.map(q).join(', ')}]`;
  const rows = [...merged].map(([method, facts]) =>
    [
      `  ${q(method)}: {`,
      `    sender: ${q(facts.sender)},`,
      `    capability: ${list(facts.capability)},`,
      `    invalidates: ${list(facts.invalidates)},`,
      `    key: ${facts.key === null ? 'null' : q(facts.key)},`,
      `    subscriptionFilter: ${facts.subscriptionFilter === null ? 'null' : q(facts.subscriptionFilter)},`,
      `    revisions: ${list(facts.revisions)},`,
      `  },`,
    ].join('\n'),
  );
  return [
    `import type { ChangeNotification } from './contract.js';`,
    '',
    `/**`,
    ` * The notifications that make cached results stale, by notification method: a list's`,
    ` * \`list_changed\` (every result of its list requests) and \`notifications/resources/updated\``,
    ` * (the reads of one URI), with the capability flag that announces each and, in the stateless`,
    ` * era, the \`subscriptions/listen\` filter member that opts in to it.`,
    ` */`,
    rows.length === 0 ? `export const changeNotifications = {} as const satisfies Readonly<Record<string, ChangeNotification>>;` : [`export const changeNotifications = {`, ...rows, `} as const satisfies Readonly<Record<string, ChangeNotification>>;`].join('\n'),
    '',
    `/** A notification of {@link changeNotifications}. */`,
    `export type ChangeNotificationMethod = keyof typeof changeNotifications;`,
    '',
  ].join('\n');
}
