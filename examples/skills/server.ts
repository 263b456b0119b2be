/**
 * Story: skills (the io.modelcontextprotocol/skills extension). The server publishes the
 * skills in `examples/skills/skills/` (a folder of SKILL.md directories) and one written in
 * code, as `skill://` resources beside its own.
 *
 * Run it: `npx tsx examples/skills/server.ts` (stdio) or `… --http`.
 */
// #region server
import { fileURLToPath } from 'node:url';
import { McpServer } from '../../runtime/index.js';
import { SkillsExtension } from '../../runtime/features/skills/index.js';
import { syncSkillFolder } from '../../runtime/features/skills/node/index.js';
// #endregion server
import { isMain, serveFromArgs } from '../shared/harness.js';

// #region server

// One extension for the process: every session's Server shares its catalog.
export const skills = new SkillsExtension();
await syncSkillFolder(skills.catalog, fileURLToPath(new URL('./skills/', import.meta.url)));
await skills.catalog.add({
  path: 'git-workflow',
  files: {
    'SKILL.md': '---\nname: git-workflow\ndescription: Branch and commit the way this team does\n---\n\nBranch from main; one topic per branch.\n',
  },
});

export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'docs', version: '1.0.0' }, { extensions: [skills] });
  mcp.registerResource('readme', 'docs://readme', { mimeType: 'text/markdown' }, (uri) => ({ contents: [{ uri, text: '# Docs server' }] }));
  // The skills' files become resources of the McpServer, kept in step with the catalog.
  skills.publishOn(mcp);
  return mcp;
}
// #endregion server

if (isMain(import.meta.url)) await serveFromArgs(createServer());
