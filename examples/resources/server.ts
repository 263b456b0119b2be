/**
 * Story: resources and resource templates. A fixed resource, a template whose variables are
 * typed from its text, listed and completed, and a resource whose changes reach subscribed
 * clients.
 *
 * Run it: `npx tsx examples/resources/server.ts` (stdio) or `… --http`.
 */
// #region server
import { McpServer } from '../../runtime/index.js';
import { z } from 'zod';
// #endregion server
import { isMain, serveFromArgs } from '../shared/harness.js';

// #region server

const notes: Record<string, Record<string, string>> = {
  recipes: { bread: 'Flour, water, salt, yeast.', soup: 'Whatever is in the fridge.' },
  travel: { lisbon: 'Take tram 28.' },
};

export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'notes', version: '1.0.0' });

  // A resource with a fixed URI.
  mcp.registerResource('index', 'notes://index', { title: 'All topics', mimeType: 'text/markdown' }, (uri) => ({
    contents: [{ uri, mimeType: 'text/markdown', text: Object.keys(notes).map((topic) => `- ${topic}`).join('\n') }],
  }));

  // An RFC 6570 template: `topic`, `id` and `format` are typed from the template text.
  mcp.registerResourceTemplate(
    'note',
    'notes://{topic}/{id}{?format}',
    {
      mimeType: 'text/plain',
      // Concrete resources of the template, for resources/list.
      list: () => Object.entries(notes).flatMap(([topic, ids]) => Object.keys(ids).map((id) => ({ uri: `notes://${topic}/${id}`, name: `${topic}/${id}` }))),
      // completion/complete for the variables; `context.arguments` holds those already chosen.
      complete: {
        topic: (value) => Object.keys(notes).filter((topic) => topic.startsWith(value)),
        id: (value, context) => Object.keys(notes[context.arguments.topic ?? ''] ?? {}).filter((id) => id.startsWith(value)),
      },
    },
    (uri, { topic, id, format }) => {
      const text = notes[String(topic)]?.[String(id)] ?? 'No such note.';
      return { contents: [{ uri, mimeType: 'text/plain', text: format === 'upper' ? text.toUpperCase() : text }] };
    },
  );

  // A resource that changes: subscribed clients get notifications/resources/updated.
  let status = 'idle';
  const statusResource = mcp.registerResource('status', 'notes://status', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: status }] }));
  mcp.registerTool('set-status', { inputSchema: z.object({ status: z.string() }) }, async (args) => {
    status = args.status;
    await statusResource.notifyUpdated();
    return { content: [{ type: 'text', text: `status is ${status}` }] };
  });

  return mcp;
}
// #endregion server

if (isMain(import.meta.url)) await serveFromArgs(createServer());
