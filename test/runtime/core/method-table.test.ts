// The method table resolves a revision's method once per revision and keeps that entry until
// something changes what it resolves to: another revision, or a result alternative added later.
import { describe, expect, it } from 'vitest';
import type { Validator } from '../../../runtime/core/contract.js';
import { MethodTable } from '../../../runtime/core/method-table.js';
import { createFakeRevision } from '../fixtures/fake-revision.js';

const refuseAll: Validator = Object.assign((_value: unknown): _value is unknown => false, { errors: [{ instancePath: '', message: 'is not a task', keyword: 'task', params: {} }] });

describe('MethodTable', () => {
  it('widens a result already looked up when an alternative is added afterwards', () => {
    const table = new MethodTable(createFakeRevision());
    const before = table.lookup('ping')!;
    expect(table.lookup('ping')).toBe(before);
    expect(before.result!({ resultType: 'task' })).toBe(true);
    table.addResultAlternative('ping', 'task', refuseAll);
    expect(table.lookup('ping')!.result!({ resultType: 'task' })).toBe(false);
    table.addResultMember('ping', 'job', refuseAll);
    expect(table.lookup('ping')!.result!({ job: {} })).toBe(false);
    expect(table.lookup('ping')!.result!({})).toBe(true);
  });

  it('resolves methods afresh for a newly bound revision', () => {
    const table = new MethodTable(createFakeRevision());
    const first = table.lookup('ping')!;
    const next = createFakeRevision({ revision: '2099-02-02' });
    table.revision = next;
    const second = table.lookup('ping')!;
    expect(second).not.toBe(first);
    expect(second.params).toBe(next.methods.ping!.params);
  });
});
