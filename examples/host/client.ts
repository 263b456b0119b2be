/**
 * Story: a host with several servers. `.mcp.json` beside this file names two stdio servers
 * (the tools and prompts stories, started through tsx) and a Streamable HTTP one (the
 * resources story, which this file serves on a free port and hands over through `${NOTES_URL}`).
 * The ConnectionManager connects them all, exposes their tools under `mcp__<server>__<tool>`
 * names, and routes calls; the `mcpgen` CLI reads the same file.
 *
 * Run it: `npx tsx examples/host/client.ts`.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
// #region host
import { ConnectionManager } from '../../runtime/features/host/index.js';
// #endregion host
import { createMcpNodeServer } from '../../runtime/node.js';
import { runCli } from '../../runtime/features/host/index.js';
import { createServer as createNotesServer } from '../resources/server.js';
import { isMain, runStoryFromArgs, type Story } from '../shared/harness.js';

const configDir = fileURLToPath(new URL('.', import.meta.url));

async function run(): Promise<void> {
  const notes = createNotesServer();
  const http = createMcpNodeServer({ server: () => notes.createServer() });
  const url = await http.listen(0);
  try {
    // #region host
    // Reads .mcp.json files from the repository root down to `cwd` (plus .mcp.local.json, and the user file unless
    // `userFile: false`); `env` feeds ${VAR} expansion (default process.env). Project entries are used once the user
    // approved them (`config.pending` lists the others); this story approves its own file in code.
    const env = { ...process.env, NOTES_URL: url.href };
    const { manager, config } = ConnectionManager.fromConfig({ cwd: configDir, env, userFile: false, approveAll: true }, { clientInfo: { name: 'example-host', version: '1.0.0' } });
    try {
      const statuses = await manager.connectAll(); // { weather: { state: 'connected', … }, … }
      const tools = await manager.tools(); // [{ name: 'mcp__weather__get-weather', server: 'weather', tool }, …]
      const weather = await manager.callTool('mcp__weather__get-weather', { city: 'Lisbon' });
      const prompt = await manager.getPrompt('review', 'review', { language: 'python' });
      const index = await manager.readResource('notes', 'notes://index');
      // #endregion host

      assert.deepEqual(config.diagnostics, []);
      for (const name of ['weather', 'review', 'notes']) assert.equal(statuses[name]?.state, 'connected', `${name}: ${statuses[name]?.reason}`);
      assert.equal(statuses.weather?.transport, 'stdio');
      assert.equal(statuses.notes?.transport, 'streamable-http');
      assert.deepEqual(tools.map((tool) => tool.name).sort(), ['mcp__notes__set-status', 'mcp__weather__add', 'mcp__weather__get-weather']);
      assert.deepEqual(weather.structuredContent, { city: 'Lisbon', temperature: 18, conditions: 'sunny' });
      assert.match(JSON.stringify(prompt.messages), /Review this python code/);
      assert.equal(index.contents[0]?.uri, 'notes://index');
      // #region host
    } finally {
      await manager.close(); // stops the stdio servers (whole process groups) and closes sessions
    }
    // #endregion host

    // The `mcpgen` CLI runs on the same configuration (here in process; installed, it is `mcpgen call …`).
    let out = '';
    const status = await runCli(['--cwd', configDir, '--approve', '--json', 'call', 'weather', 'add', 'a=2', 'b=40'], {
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => process.stderr.write(text) },
      env: { ...env, XDG_CONFIG_HOME: configDir },
      cwd: configDir,
    });
    assert.equal(status, 0);
    assert.deepEqual(JSON.parse(out).structuredContent, { sum: 42 });
  } finally {
    await http.close();
  }
}

export const story: Story = { name: 'host', transports: ['stdio'], run };

if (isMain(import.meta.url)) await runStoryFromArgs(story);
