/**
 * The cross-revision sender tables (generated/senders.ts): one row per sender name with the
 * method it sends and the revisions that have it, per side; a name that would send two
 * different methods is refused.
 */
import { describe, expect, it } from 'vitest';
import { emitSendersFile } from '../../codegen/emit-senders.js';
import type { MethodSpec } from '../../codegen/method-spec.js';
import type { RevisionTable } from '../../codegen/method-table.js';

function spec(method: string, stubName: string, kind: MethodSpec['kind'], direction: MethodSpec['direction'], embedded = false): MethodSpec {
  return {
    method,
    kind,
    direction,
    embedded,
    definition: 'X',
    paramsDefinition: null,
    paramsSchema: null,
    paramsRequired: false,
    resultDefinitions: kind === 'request' ? ['EmptyResult'] : [],
    capability: null,
    paginatedField: null,
    cacheable: false,
    stubName,
    nameHeader: null,
  };
}

function table(methods: MethodSpec[]): RevisionTable {
  return { methods, errorCodes: [], batching: false, features: { primingEvents: false, ssePolling: false, resumableStreams: false }, changeNotifications: [], loggingLevels: [], warnings: [] };
}

describe('emitSendersFile', () => {
  it('lists every sender of any revision once, with the revisions that have its method, per side', () => {
    const text = emitSendersFile([
      { revision: '2025-01-01', table: table([spec('ping', 'ping', 'request', 'both'), spec('resources/subscribe', 'subscribe', 'request', 'client-to-server'), spec('notifications/message', 'notifyLoggingMessage', 'notification', 'server-to-client')]) },
      { revision: '2026-01-01', table: table([spec('server/discover', 'discover', 'request', 'client-to-server'), spec('sampling/createMessage', 'createMessage', 'request', 'server-to-client', true), spec('notifications/message', 'notifyLoggingMessage', 'notification', 'server-to-client')]) },
    ]);
    expect(text).toContain("export const clientRequestSenders = {\n  /** Sends `ping` (2025-01-01). */\n  ping: 'ping',\n  /** Sends `resources/subscribe` (2025-01-01). */\n  subscribe: 'resources/subscribe',\n  /** Sends `server/discover` (2026-01-01). */\n  discover: 'server/discover',\n} as const;");
    // A request of both directions is a sender of both sides; an embedded input request is sent by no one.
    expect(text).toContain("export const serverRequestSenders = {\n  /** Sends `ping` (2025-01-01). */\n  ping: 'ping',\n} as const;");
    expect(text).toContain("export const serverNotificationSenders = {\n  /** Sends `notifications/message` (2025-01-01, 2026-01-01). */\n  notifyLoggingMessage: 'notifications/message',\n} as const;");
    expect(text).toContain('export const clientNotificationSenders = {\n} as const;');
  });

  it('refuses a sender name that sends different methods in two revisions', () => {
    expect(() =>
      emitSendersFile([
        { revision: '2025-01-01', table: table([spec('tasks/get', 'getTask', 'request', 'client-to-server')]) },
        { revision: '2026-01-01', table: table([spec('tasks/fetch', 'getTask', 'request', 'client-to-server')]) },
      ]),
    ).toThrow('sender getTask sends tasks/get in 2025-01-01 but tasks/fetch in 2026-01-01');
  });
});
