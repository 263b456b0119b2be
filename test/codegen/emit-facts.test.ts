/** Method-name constants: named after the method, one per name across revisions and extensions. */
import { describe, expect, it } from 'vitest';
import { emitMethodNamesFile, methodConstName } from '../../codegen/emit-facts.js';
import type { MethodSpec } from '../../codegen/method-spec.js';
import { Method } from '../../generated/methods.js';

const spec = (method: string, kind: MethodSpec['kind'] = 'request', nameHeader: string | null = null) => ({ method, kind, nameHeader }) as MethodSpec;

describe('methodConstName', () => {
  it.each([
    ['tools/call', 'ToolsCall'],
    ['notifications/tools/list_changed', 'NotificationsToolsListChanged'],
    ['sampling/createMessage', 'SamplingCreateMessage'],
    ['initialize', 'Initialize'],
    ['ui/open-link', 'UiOpenLink'],
    ['ui/notifications/tool-input-partial', 'UiNotificationsToolInputPartial'],
  ])('%s → %s', (method, name) => {
    expect(methodConstName(method)).toBe(name);
  });

  it('refuses a method that gives no identifier', () => {
    expect(() => methodConstName('1/x')).toThrow(/gives no identifier/);
  });
});

describe('emitMethodNamesFile', () => {
  it('lists each method once, with the revisions and extensions that define it', () => {
    const text = emitMethodNamesFile([
      { label: '2025-11-25', methods: [spec('tools/call'), spec('notifications/tasks/status', 'notification')] },
      { label: 'extension io.modelcontextprotocol/tasks', methods: [spec('tasks/update')] },
      { label: '2026-07-28', methods: [spec('tools/call')] },
    ]);
    expect(text).toContain("  /** `tools/call`: request in 2025-11-25, 2026-07-28. */\n  ToolsCall: 'tools/call',");
    expect(text).toContain("  /** `tasks/update`: request in extension io.modelcontextprotocol/tasks. */\n  TasksUpdate: 'tasks/update',");
    expect(text).toContain("  NotificationsTasksStatus: 'notifications/tasks/status',");
  });

  it('lists the name header member of each method that has one, once across revisions', () => {
    const text = emitMethodNamesFile([
      { label: '2025-11-25', methods: [spec('tools/call'), spec('tasks/get')] },
      { label: '2026-07-28', methods: [spec('tools/call', 'request', 'name'), spec('tools/list')] },
      { label: 'extension io.modelcontextprotocol/tasks', methods: [spec('tasks/get', 'request', 'taskId')] },
    ]);
    expect(text).toContain("export const nameHeaders: Readonly<Record<string, string>> = {\n  'tasks/get': 'taskId',\n  'tools/call': 'name',\n};");
  });

  it('fails when two sources name different members for one method', () => {
    expect(() => emitMethodNamesFile([
      { label: '2026-07-28', methods: [spec('tools/call', 'request', 'name')] },
      { label: '2099-01-01', methods: [spec('tools/call', 'request', 'tool')] },
    ])).toThrow(/tools\/call carries params.name in Mcp-Name in 2026-07-28 but params.tool in 2099-01-01/);
  });

  it('fails when two methods give the same constant name', () => {
    expect(() => emitMethodNamesFile([{ label: '2099-01-01', methods: [spec('widgets/spin_fast'), spec('widgets/spinFast')] }])).toThrow(/both give the constant name WidgetsSpinFast/);
  });

  it('generates a constant for every method of every pinned revision', async () => {
    const { revisions } = await import('../../generated/index.js');
    const { revisionModules } = await import('../../generated/all.js');
    const values = new Set<string>(Object.values(Method));
    for (const revision of revisions) {
      for (const method of Object.keys(revisionModules[revision]!.methods)) expect(values.has(method), `${revision} ${method}`).toBe(true);
    }
  });
});

describe('the revision-independent modules', () => {
  it.each(['methods.ts', 'change-notifications.ts', 'index.ts'])('generated/%s imports no revision module statically', async (file) => {
    const { readFileSync } = await import('node:fs');
    const text = readFileSync(new URL(`../../generated/${file}`, import.meta.url), 'utf8');
    const imports = [...text.matchAll(/^import [^;]*from '([^']+)';$/gm)].map((match) => match[1]);
    expect(imports.every((path) => path === './contract.js'), imports.join(', ')).toBe(true);
  });
});
