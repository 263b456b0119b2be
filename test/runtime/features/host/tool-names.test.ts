import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME_LENGTH, ToolNameMap, type ToolRef } from '../../../../runtime/features/host/tool-names.js';

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

function checkMap(refs: ToolRef[]): ToolNameMap {
  const names = new ToolNameMap(refs);
  const seen = new Set<string>();
  for (const ref of refs) {
    const name = names.nameOf(ref)!;
    expect(name, JSON.stringify(ref)).toMatch(VALID);
    expect(name.startsWith('mcp__')).toBe(true);
    expect(names.resolve(name)).toEqual(ref);
    seen.add(name);
  }
  expect(seen.size).toBe(new Set(refs.map((ref) => `${ref.server}\u0000${ref.tool}`)).size);
  return names;
}

describe('ToolNameMap', () => {
  it('uses mcp__<server>__<tool> when it fits and is unambiguous', () => {
    const names = checkMap([{ server: 'github', tool: 'create_issue' }, { server: 'fs-2', tool: 'read-file' }, { server: 'my_db', tool: 'q' }]);
    expect(names.nameOf({ server: 'github', tool: 'create_issue' })).toBe('mcp__github__create_issue');
    expect(names.nameOf({ server: 'fs-2', tool: 'read-file' })).toBe('mcp__fs-2__read-file');
    expect(names.nameOf({ server: 'my_db', tool: 'q' })).toBe('mcp__my_db__q');
    expect(names.resolve('mcp__nope__x')).toBeUndefined();
  });

  it('keeps splits that would read the same apart (a__b/c vs a/b__c, a_/b vs a/_b)', () => {
    const refs = [
      { server: 'a__b', tool: 'c' },
      { server: 'a', tool: 'b__c' },
      { server: 'a_', tool: 'b' },
      { server: 'a', tool: '_b' },
    ];
    const names = checkMap(refs);
    expect(names.nameOf({ server: 'a', tool: 'b__c' })).toBe('mcp__a__b__c');
    expect(names.nameOf({ server: 'a', tool: '_b' })).toBe('mcp__a___b');
    expect(names.nameOf({ server: 'a__b', tool: 'c' })).toMatch(/^mcp__a_b__c_[0-9a-f]{8}$/);
  });

  it('sanitises other characters and hashes, so sanitised twins stay distinct', () => {
    const refs = [
      { server: 'my.server', tool: 'get data' },
      { server: 'my_server', tool: 'get_data' },
      { server: 'my server', tool: 'get/data' },
      { server: 'ünïcode', tool: 'tool' },
      { server: '...', tool: '!!!' },
    ];
    const names = checkMap(refs);
    expect(names.nameOf({ server: 'my_server', tool: 'get_data' })).toBe('mcp__my_server__get_data');
    expect(names.nameOf({ server: 'my.server', tool: 'get data' })).toMatch(/^mcp__my_server__get_data_[0-9a-f]{8}$/);
  });

  it('cuts long names to 64 characters with a hash, distinct even when the kept prefixes are equal', () => {
    const long = 'x'.repeat(80);
    const refs = [
      { server: 'server', tool: `${long}a` },
      { server: 'server', tool: `${long}b` },
      { server: 'a-very-long-server-name-that-goes-on-and-on-and-on', tool: 'tool' },
      { server: 's', tool: 'y'.repeat(64 - 'mcp__s__'.length) },
    ];
    const names = checkMap(refs);
    expect(names.nameOf(refs[3]!)).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(names.nameOf(refs[3]!)).toBe(`mcp__s__${'y'.repeat(56)}`);
    expect(names.nameOf(refs[0]!)).toHaveLength(MAX_TOOL_NAME_LENGTH);
    expect(names.nameOf(refs[0]!)).not.toBe(names.nameOf(refs[1]!));
  });

  it('is deterministic and stable: a tool keeps its name whatever else is listed', () => {
    const a = { server: 'weird.server', tool: 'do it' };
    const alone = new ToolNameMap([a]).nameOf(a);
    const crowd = new ToolNameMap([{ server: 'other', tool: 'x' }, a, { server: 'weird_server', tool: 'do_it' }]).nameOf(a);
    expect(crowd).toBe(alone);
    expect(new ToolNameMap([...Array(3)].map(() => a)).size).toBe(1);
  });

  it('stays collision-free and reversible over many random names', () => {
    const alphabet = 'ab_-.é ';
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = (max: number) => Array.from({ length: 1 + Math.floor(random() * max) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const refs = Array.from({ length: 2000 }, () => ({ server: word(6), tool: random() < 0.1 ? word(90) : word(5) }));
    checkMap(refs);
  });
});
