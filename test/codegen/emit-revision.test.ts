// The method tables codegen emits: members most methods share come from one `common` object
// spread first into each row, which names them only where it differs, and every row of every
// table has its members in one order (one shape for the engine's lookups).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { revisionModules } from '../../generated/all.js';
import { revisions } from '../../generated/index.js';

describe('generated method tables', () => {
  it('give every row the same members in the same order', () => {
    const orders = new Set<string>();
    for (const revision of revisions) {
      for (const info of Object.values(revisionModules[revision]!.methods)) orders.add(Object.keys(info).join(','));
    }
    expect([...orders]).toEqual(['embedded,pagination,cacheable,nameHeader,method,kind,direction,definition,paramsDefinition,paramsRequired,params,resultDefinitions,result,capability']);
  });

  it('name a shared member in a row only where it differs from the common value', () => {
    for (const revision of revisions) {
      const source = readFileSync(new URL(`../../generated/${revision}/methods.ts`, import.meta.url), 'utf8');
      const methods = revisionModules[revision]!.methods;
      const named = (member: string) => (source.match(new RegExp(`^    ${member}: `, 'gm')) ?? []).length;
      expect(named('embedded'), revision).toBe(Object.values(methods).filter((info) => info.embedded).length);
      expect(named('cacheable'), revision).toBe(Object.values(methods).filter((info) => info.cacheable).length);
      expect(named('pagination'), revision).toBe(Object.values(methods).filter((info) => info.pagination !== null).length);
      expect(named('nameHeader'), revision).toBe(Object.values(methods).filter((info) => info.nameHeader !== null).length);
      expect((source.match(/^    \.\.\.common,$/gm) ?? []).length, revision).toBe(Object.keys(methods).length);
    }
  });
});
