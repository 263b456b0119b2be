import { describe, expect, it } from 'vitest';
import { SdkError } from '../../../../runtime/index.js';
import { MAX_SKILL_BYTES, MAX_SKILL_RESOURCES, SkillCatalog, type SkillDefinition } from '../../../../runtime/features/skills/index.js';

const skillMd = (name: string, extra = ''): string => `---\nname: ${name}\ndescription: The ${name} skill\n${extra}---\nBody\n`;

async function refusal(work: Promise<unknown>): Promise<string> {
  const error = await work.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(SdkError);
  expect((error as SdkError).code).toBe('INVALID_ARGUMENT');
  return (error as SdkError).message;
}

describe('SkillCatalog.add refuses', () => {
  it.each<[string, SkillDefinition, RegExp]>([
    ['a skill without SKILL.md', { path: 'a', files: { 'README.md': 'x' } }, /has no SKILL.md at its root/],
    ['a name that is not the last path segment', { path: 'acme/refunds', files: { 'SKILL.md': skillMd('billing') } }, /frontmatter name "billing" must equal the last segment of the skill path \(refunds\)/],
    ['a name against the naming rules', { path: 'Refunds', files: { 'SKILL.md': skillMd('Refunds') } }, /breaks the naming rules/],
    ['a leading hyphen', { path: '-refunds', files: { 'SKILL.md': skillMd('-refunds') } }, /breaks the naming rules/],
    ['consecutive hyphens', { path: 'a--b', files: { 'SKILL.md': skillMd('a--b') } }, /breaks the naming rules/],
    ['a ".." segment in the skill path', { path: 'acme/../refunds', files: { 'SKILL.md': skillMd('refunds') } }, /skill path "acme\/\.\.\/refunds" has an empty, "\.", "\.\." or invalid segment/],
    ['a ".." segment in a file path', { path: 'a', files: { 'SKILL.md': skillMd('a'), '../escape.md': 'x' } }, /file path in skill a: "\.\.\/escape\.md"/],
    ['an empty segment in a file path', { path: 'a', files: { 'SKILL.md': skillMd('a'), 'dir//x.md': 'x' } }, /"dir\/\/x\.md"/],
    ['a missing description', { path: 'a', files: { 'SKILL.md': '---\nname: a\n---\n' } }, /needs a non-empty description/],
    ['frontmatter it cannot read', { path: 'a', files: { 'SKILL.md': skillMd('a', 'tags: &x [a]\n') } }, /skill:\/\/a\/SKILL\.md: frontmatter line 3: anchors/],
    ['a SKILL.md that is not UTF-8', { path: 'a', files: { 'SKILL.md': new Uint8Array([0x2d, 0xff, 0xfe]) } }, /is not UTF-8 text/],
  ])('%s', async (_label, definition, message) => {
    expect(await refusal(new SkillCatalog().add(definition))).toMatch(message);
  });

  it('a skill over 512 files or 16 MiB, and a catalog past maxSkills', async () => {
    const files: Record<string, string> = { 'SKILL.md': skillMd('many') };
    for (let i = 1; i < MAX_SKILL_RESOURCES; i++) files[`f/${i}.txt`] = 'x';
    const catalog = new SkillCatalog({ maxSkills: 1 });
    await catalog.add({ path: 'many', files });
    expect(await refusal(catalog.add({ path: 'many', files: { ...files, 'f/extra.txt': 'x' } }))).toMatch(/has 513 files; the limit is 512/);
    const big = { 'SKILL.md': skillMd('big'), 'blob.bin': new Uint8Array(MAX_SKILL_BYTES - Buffer.byteLength(skillMd('big')) + 1) };
    expect(await refusal(new SkillCatalog().add({ path: 'big', files: big }))).toMatch(/is larger than 16777216 bytes/);
    expect(await refusal(catalog.add({ path: 'other', files: { 'SKILL.md': skillMd('other') } }))).toMatch(/already holds 1 skills/);
    // Replacing a served skill is no new skill.
    await catalog.add({ path: 'many', files: { 'SKILL.md': skillMd('many') } });
    expect(catalog.entries()).toHaveLength(1);
  });

  it('a scheme that is not one', () => {
    expect(() => new SkillCatalog({ scheme: 'Skill Files' })).toThrow(SdkError);
  });
});

it('serves another scheme, pages after a cursor, and lists prefix directories', async () => {
  const catalog = new SkillCatalog({ scheme: 'docs' });
  await catalog.add({ path: 'acme/billing/refunds', files: { 'SKILL.md': skillMd('refunds'), 'examples/email.md': 'Dear customer' } });
  expect(catalog.entries().map((entry) => entry.uri)).toEqual(['docs://acme/billing/refunds/SKILL.md']);
  expect(catalog.directory('docs://acme')?.map((child) => [child.uri, child.mimeType])).toEqual([['docs://acme/billing', 'inode/directory']]);
  expect(catalog.directory('docs://acme/billing/refunds/examples')?.map((child) => child.uri)).toEqual(['docs://acme/billing/refunds/examples/email.md']);
  expect(catalog.directory('docs://acme/billing/refunds/SKILL.md')).toBeUndefined();
  expect(catalog.read('docs://acme/billing/refunds/examples/email.md')?.contents).toEqual([{ uri: 'docs://acme/billing/refunds/examples/email.md', mimeType: 'text/markdown', text: 'Dear customer' }]);
  expect(catalog.get('docs://acme/billing/refunds/examples/email.md')).toBeUndefined();
});
