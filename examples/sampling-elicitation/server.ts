/**
 * Story: sampling and elicitation from a tool, in both eras with the same handler. In a
 * 2025-11-25 session `context.elicitForm` and `context.sample` send real requests to the
 * client and wait for them; in the 2026-07-28 stateless era the same calls end the round with
 * an InputRequiredResult, the client answers and retries, and the handler runs again from the
 * top with the answers filled in (each question is found again by its `inputKey`).
 *
 * Run it: `npx tsx examples/sampling-elicitation/server.ts` (stdio) or `… --http`.
 */
// #region server
import { McpServer } from '../../runtime/index.js';
import { z } from 'zod';
// #endregion server
import { isMain, serveFromArgs } from '../shared/harness.js';

// #region server

export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'trip-planner', version: '1.0.0' });

  mcp.registerTool('plan-trip', { inputSchema: z.object({ city: z.string() }) }, async ({ city }, context) => {
    // Ask the user (form-mode elicitation); the answer is checked against the schema and typed.
    const dates = await context.elicitForm(
      `When do you travel to ${city}?`,
      z.object({ from: z.string(), nights: z.number().int().min(1).default(2) }),
      { inputKey: 'dates' },
    );
    if (dates.action !== 'accept') return { content: [{ type: 'text', text: 'Trip planning cancelled.' }] };

    // Ask the client's model (sampling).
    const idea = await context.sample(
      {
        messages: [{ role: 'user', content: { type: 'text', text: `One thing to do in ${city} for ${dates.content.nights} nights?` } }],
        maxTokens: 100,
      },
      { inputKey: 'idea' },
    );
    // Content is one block, or (2025-11-25 on, with tool use) a list of blocks.
    const [block] = Array.isArray(idea.content) ? idea.content : [idea.content];
    const suggestion = block?.type === 'text' ? block.text : '(no text)';
    return { content: [{ type: 'text', text: `${city} from ${dates.content.from}, ${dates.content.nights} nights: ${suggestion}` }] };
  });

  return mcp;
}
// #endregion server

if (isMain(import.meta.url)) await serveFromArgs(createServer());
