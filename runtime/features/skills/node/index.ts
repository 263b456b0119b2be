/**
 * Node-only helpers of the Skills extension: skills served from a folder of SKILL.md
 * directories (`mcpgen/skills/node`).
 */
export { loadSkillFolder, syncSkillFolder, type SkillFolderOptions } from './folder.js';
