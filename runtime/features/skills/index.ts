/**
 * The Skills extension (io.modelcontextprotocol/skills, SEP-2640): servers publish Agent
 * Skills (directories of files around a SKILL.md) as `skill://` resources with a manifest of
 * digests; clients list them, load one on demand and verify what they read. The extension has
 * no JSON Schema, so its wire types are defined here (`wire.ts`). Node's folder loader is in
 * `mcpgen/skills/node`.
 */
export { SkillsExtension, type SkillsExtensionOptions, type SkillsCacheHint, type ResourceRegistrar } from './server.js';
export { SkillsClient, type LoadedSkill, type LoadSkillOptions, type ListSkillsOptions, type SkillFile, type SkillVerificationReason } from './client.js';
export { SkillCatalog, type SkillCatalogOptions, type SkillDefinition } from './catalog.js';
export { parseFrontmatter, splitFrontmatter, MAX_FRONTMATTER_CHARS, MAX_FRONTMATTER_DEPTH, MAX_FRONTMATTER_LINES } from './frontmatter.js';
export {
  SKILLS_EXTENSION_ID, SkillsMethod, SKILL_FILE, MAX_SKILL_BYTES, MAX_SKILL_RESOURCES,
  type Skill, type SkillFrontmatter, type SkillResource, type ListSkillsResult, type GetSkillResult, type DirectoryEntry, type ReadDirectoryResult,
} from './wire.js';
