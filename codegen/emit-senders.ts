import { notificationSender, requestSender } from './emit-revision.js';
import type { MethodSpec } from './method-spec.js';
import type { RevisionTable } from './method-table.js';
import { CodegenError } from './model.js';

/** The four sender tables: a Client sends client requests and notifications, a Server the server ones. */
const TABLES: ReadonlyArray<{ readonly name: string; readonly doc: string; readonly pick: (spec: MethodSpec) => boolean }> = [
  { name: 'clientRequestSenders', doc: 'requests a client sends', pick: (spec) => requestSender(spec, 'client') },
  { name: 'clientNotificationSenders', doc: 'notifications a client sends', pick: (spec) => notificationSender(spec, 'client') },
  { name: 'serverRequestSenders', doc: 'JSON-RPC requests a server sends', pick: (spec) => requestSender(spec, 'server') },
  { name: 'serverNotificationSenders', doc: 'notifications a server sends', pick: (spec) => notificationSender(spec, 'server') },
];

/**
 * `senders.ts`: every typed sender name of any pinned revision and the method it sends, per
 * side and kind, with the revisions that have the method. The runtime types a peer's senders
 * from these tables and the method maps of the revision it is typed with, so a peer typed with
 * one revision offers exactly that revision's senders, and a new revision needs no runtime edit.
 * A name that sends different methods in two revisions is an error: one sender, one method.
 */
export function emitSendersFile(revisions: ReadonlyArray<{ readonly revision: string; readonly table: RevisionTable }>): string {
  const out: string[] = [];
  for (const { name, doc, pick } of TABLES) {
    const senders = new Map<string, { method: string; revisions: string[] }>();
    for (const { revision, table } of revisions) {
      for (const spec of table.methods.filter(pick)) {
        const known = senders.get(spec.stubName);
        if (known === undefined) senders.set(spec.stubName, { method: spec.method, revisions: [revision] });
        else if (known.method !== spec.method) {
          throw new CodegenError(`sender ${spec.stubName} sends ${known.method} in ${known.revisions.join(', ')} but ${spec.method} in ${revision}; give one of them another stub name in the overlay`);
        } else known.revisions.push(revision);
      }
    }
    const rows = [...senders]
      .sort(([a, x], [b, y]) => (x.method < y.method ? -1 : x.method > y.method ? 1 : a < b ? -1 : a > b ? 1 : 0))
      .map(([stub, { method, revisions: where }]) => `  /** Sends \`${method}\` (${where.join(', ')}). */\n  ${stub}: '${method}',`);
    out.push(`/** Typed senders of the ${doc}, in any pinned revision: sender name → method. */`, `export const ${name} = {\n${rows.join('\n')}${rows.length ? '\n' : ''}} as const;`, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
