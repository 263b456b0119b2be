/**
 * Story: prompts with argument completion. The arguments schema lists the prompt's arguments,
 * checks them on `prompts/get` and types the callback; completers suggest values, using the
 * arguments the user already picked.
 *
 * Run it: `npx tsx examples/prompts/server.ts` (stdio) or `… --http`.
 */
// #region server
import { McpServer } from '../../runtime/index.js';
import { z } from 'zod';
// #endregion server
import { isMain, serveFromArgs } from '../shared/harness.js';

// #region server

const frameworks: Record<string, string[]> = {
  typescript: ['express', 'hono', 'nestjs'],
  python: ['django', 'fastapi', 'flask'],
};

export function createServer(): McpServer {
  const mcp = new McpServer({ name: 'code-review', version: '1.0.0' });

  mcp.registerPrompt(
    'review',
    {
      title: 'Code review',
      description: 'Review code in a language and framework',
      argsSchema: z.object({
        language: z.string().describe('Programming language'),
        framework: z.string().optional().describe('Framework, if any'),
      }),
      complete: {
        language: (value) => Object.keys(frameworks).filter((language) => language.startsWith(value)),
        // Completion sees the arguments already chosen, here the language.
        framework: (value, context) => (frameworks[context.arguments.language ?? ''] ?? []).filter((name) => name.startsWith(value)),
      },
    },
    ({ language, framework }) => ({
      description: `Review of ${language} code`,
      messages: [
        { role: 'user', content: { type: 'text', text: `Review this ${language}${framework === undefined ? '' : ` (${framework})`} code for bugs and style.` } },
      ],
    }),
  );

  return mcp;
}
// #endregion server

if (isMain(import.meta.url)) await serveFromArgs(createServer());
