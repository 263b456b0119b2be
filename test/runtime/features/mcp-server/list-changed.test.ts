import { describe, expect, it } from 'vitest';
import { McpServer, type McpServerOptions } from '../../../../runtime/index.js';
import { connect, settle } from './harness.js';

const info = { name: 'list-changed-test', version: '1.0.0' };

const changes = (notifications: ReadonlyArray<{ method: string }>, method: string): number => notifications.filter((notification) => notification.method === method).length;

async function twoSessions(options: McpServerOptions = {}) {
  const mcp = new McpServer(info, { capabilities: { tools: {}, resources: {}, prompts: {} }, ...options });
  const first = await connect(mcp);
  const second = await connect(mcp);
  return { mcp, first, second };
}

describe('list_changed notifications', () => {
  it('coalesce ten registrations in one tick into one notification per session', async () => {
    const { mcp, first, second } = await twoSessions();
    for (let i = 0; i < 10; i++) mcp.registerTool(`tool${i}`, {}, () => ({ content: [] }));
    await settle();
    expect(changes(first.notifications, 'notifications/tools/list_changed')).toBe(1);
    expect(changes(second.notifications, 'notifications/tools/list_changed')).toBe(1);
    expect((await first.client.listTools()).tools).toHaveLength(10);
    await mcp.close();
  });

  it('coalesce changes across awaits within the same task', async () => {
    const { mcp, first } = await twoSessions();
    const tool = mcp.registerTool('t', {}, () => ({ content: [] }));
    await Promise.resolve();
    tool.disable();
    await Promise.resolve();
    tool.update({ description: 'changed' });
    tool.enable();
    await settle();
    expect(changes(first.notifications, 'notifications/tools/list_changed')).toBe(1);
    await mcp.close();
  });

  it('send one notification per task that changed something', async () => {
    const { mcp, first } = await twoSessions();
    const tool = mcp.registerTool('t', {}, () => ({ content: [] }));
    await settle();
    tool.disable();
    await settle();
    tool.disable(); // no change, no notification
    await settle();
    tool.remove();
    await settle();
    expect(changes(first.notifications, 'notifications/tools/list_changed')).toBe(3);
    await mcp.close();
  });

  it('announce each kind of list with its own notification', async () => {
    const { mcp, first } = await twoSessions();
    mcp.registerResource('r', 'mem://r', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
    mcp.registerResourceTemplate('t', 'mem://t/{id}', {}, (uri) => ({ contents: [{ uri, text: '' }] }));
    mcp.registerPrompt('p', {}, () => ({ messages: [] }));
    await settle();
    expect(first.notifications.map((notification) => notification.method)).toEqual(['notifications/resources/list_changed', 'notifications/prompts/list_changed']);
    await mcp.close();
  });

  it('are sent on request for lists that change outside McpServer', async () => {
    let flagOn = false;
    const mcp = new McpServer(info);
    mcp.registerTool('beta', { available: () => flagOn }, () => ({ content: [] }));
    mcp.registerPrompt('p', {}, () => ({ messages: [] }));
    const { client, notifications } = await connect(mcp);
    expect((await client.listTools()).tools).toHaveLength(0);
    flagOn = true;
    mcp.notifyListChanged('tools');
    mcp.notifyListChanged('tools');
    mcp.notifyListChanged('prompts');
    await settle();
    expect(notifications.map((notification) => notification.method)).toEqual(['notifications/tools/list_changed', 'notifications/prompts/list_changed']);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['beta']);
    await mcp.close();
  });

  it('are sent one per change in immediate mode', async () => {
    const { mcp, first } = await twoSessions({ listChanged: 'immediate' });
    for (let i = 0; i < 10; i++) mcp.registerTool(`tool${i}`, {}, () => ({ content: [] }));
    await settle();
    expect(changes(first.notifications, 'notifications/tools/list_changed')).toBe(10);
    await mcp.close();
  });

  it('are not sent, nor promised, when off', async () => {
    const { mcp, first } = await twoSessions({ listChanged: 'off' });
    mcp.registerTool('t', {}, () => ({ content: [] }));
    await settle();
    expect(first.notifications).toEqual([]);
    expect(first.client.serverCapabilities?.tools).toEqual({});
    await mcp.close();
  });

  it('do not tell a session about changes made before it connected', async () => {
    const mcp = new McpServer(info);
    mcp.registerTool('early', {}, () => ({ content: [] }));
    const late = await connect(mcp);
    await settle();
    expect(late.notifications).toEqual([]);
    await mcp.close();
  });

  it('skip sessions whose capabilities do not include the list', async () => {
    const mcp = new McpServer(info);
    mcp.registerTool('t', {}, () => ({ content: [] }));
    const withoutPrompts = await connect(mcp);
    mcp.registerPrompt('p', {}, () => ({ messages: [] }));
    await settle();
    expect(withoutPrompts.client.serverCapabilities?.prompts).toBeUndefined();
    expect(withoutPrompts.notifications).toEqual([]);
    const withPrompts = await connect(mcp);
    expect((await withPrompts.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['p']);
    await mcp.close();
  });

  it('stop once a session closed', async () => {
    const { mcp, first, second } = await twoSessions();
    await first.client.close();
    await settle();
    expect(mcp.sessions.size).toBe(1);
    mcp.registerTool('t', {}, () => ({ content: [] }));
    await settle();
    expect(changes(second.notifications, 'notifications/tools/list_changed')).toBe(1);
    expect(first.notifications).toEqual([]);
    await mcp.close();
    expect(mcp.sessions.size).toBe(0);
  });
});
