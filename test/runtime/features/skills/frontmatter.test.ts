import { describe, expect, it } from 'vitest';
import { SdkError } from '../../../../runtime/index.js';
import { MAX_FRONTMATTER_CHARS, MAX_FRONTMATTER_DEPTH, parseFrontmatter, splitFrontmatter } from '../../../../runtime/features/skills/index.js';

const doc = (yaml: string): string => `---\n${yaml}\n---\nbody\n`;

describe('parseFrontmatter', () => {
  it('reads the subset SKILL.md files use', () => {
    const text = doc([
      'name: pdf-processing # the skill name',
      "description: 'Extract, fill, and assemble PDF documents'",
      'license: "Apache-2.0"',
      'allowed-tools: [Read, "Bash(git:*)", 3]',
      'metadata:',
      '  version: "2.1"',
      '  author: acme',
      '  io.example/rating: 4.5',
      '  enabled: true',
      '  nothing: ~',
      'tags:',
      '- pdf',
      '- forms',
      'steps:',
      '  - name: one',
      '    run: first',
      '  - two',
      'notes: |',
      '  line one',
      '  line two',
      '',
      'summary: >-',
      '  folded',
      '  text',
      'long: a plain scalar',
      '  continued here',
      'empty: {}',
    ].join('\n'));
    expect(parseFrontmatter(text)).toEqual({
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      license: 'Apache-2.0',
      'allowed-tools': ['Read', 'Bash(git:*)', 3],
      metadata: { version: '2.1', author: 'acme', 'io.example/rating': 4.5, enabled: true, nothing: null },
      tags: ['pdf', 'forms'],
      steps: [{ name: 'one', run: 'first' }, 'two'],
      notes: 'line one\nline two\n',
      summary: 'folded text',
      long: 'a plain scalar continued here',
      empty: {},
    });
  });

  it('splits the body off, with a BOM and CRLF line ends', () => {
    expect(splitFrontmatter('\ufeff---\r\nname: x\r\n---\r\n# Body\r\n')).toEqual({ yaml: 'name: x', body: '# Body\r\n' });
    expect(splitFrontmatter('# no frontmatter\n')).toBeUndefined();
    expect(splitFrontmatter('---\nname: x\n')).toBeUndefined();
  });

  it.each([
    ['no frontmatter', '# Title\n', /does not begin/],
    ['an anchor', doc('name: &a x'), /anchors, aliases/],
    ['an alias', doc('name: *a'), /anchors, aliases/],
    ['a tag', doc('name: !!str x'), /anchors, aliases/],
    ['a duplicate key', doc('name: a\nname: b'), /line 2: duplicate key "name"/],
    ['a multi-line quoted scalar', doc('description: "starts\n  ends"'), /unterminated quoted scalar/],
    ['": " inside a plain scalar', doc('description: Use this: it helps'), /quote the value/],
    ['a root that is a sequence', doc('- a\n- b'), /must be a mapping/],
    ['tabs in indentation', doc('metadata:\n\tversion: 1'), /tabs/],
    ['an unknown escape', doc('name: "\\q"'), /unknown escape/],
  ])('refuses %s with SdkError INVALID_ARGUMENT', (_label, text, message) => {
    const error = (() => {
      try {
        parseFrontmatter(text);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe('INVALID_ARGUMENT');
    expect((error as SdkError).message).toMatch(message);
  });

  it('bounds size and nesting', () => {
    expect(() => parseFrontmatter(doc(`description: ${'x'.repeat(MAX_FRONTMATTER_CHARS)}`))).toThrow(/longer than/);
    const deep = Array.from({ length: MAX_FRONTMATTER_DEPTH + 1 }, (_, level) => `${'  '.repeat(level)}k${level}:`).join('\n') + ' x';
    expect(() => parseFrontmatter(doc(deep))).toThrow(/deeper than/);
    const shallow = Array.from({ length: MAX_FRONTMATTER_DEPTH - 1 }, (_, level) => `${'  '.repeat(level)}k${level}:`).join('\n') + ' x';
    expect(() => parseFrontmatter(doc(shallow))).not.toThrow();
  });

  it('keeps "__proto__" as an ordinary key', () => {
    const parsed = parseFrontmatter(doc('name: x\n__proto__: polluted'));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['name', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
