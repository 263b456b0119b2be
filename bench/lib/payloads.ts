// The payloads of the validation scenario: the same values for every implementation.

export const VALIDATION_CASES = ['CallToolRequest', 'CallToolResult (10 text items)', 'ListToolsResult (100 tools)', 'invalid CallToolRequest (error path)'] as const;
export type ValidationCase = (typeof VALIDATION_CASES)[number];

/** Which schema definition checks each case, and whether the value must pass. */
export const CASE_DEFINITION: Readonly<Record<ValidationCase, { definition: 'CallToolRequest' | 'CallToolResult' | 'ListToolsResult'; valid: boolean }>> = {
  CallToolRequest: { definition: 'CallToolRequest', valid: true },
  'CallToolResult (10 text items)': { definition: 'CallToolResult', valid: true },
  'ListToolsResult (100 tools)': { definition: 'ListToolsResult', valid: true },
  'invalid CallToolRequest (error path)': { definition: 'CallToolRequest', valid: false },
};

export function payload(name: ValidationCase): unknown {
  switch (name) {
    case 'CallToolRequest':
      return { jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'New York', units: 'metric' } } };
    case 'CallToolResult (10 text items)':
      return { content: Array.from({ length: 10 }, (_, i) => ({ type: 'text', text: `Result line ${i}: the quick brown fox jumps over the lazy dog.` })) };
    case 'ListToolsResult (100 tools)':
      return {
        tools: Array.from({ length: 100 }, (_, i) => ({
          name: `tool_${i}`,
          title: `Tool ${i}`,
          description: `Looks things up in data source number ${i}.`,
          inputSchema: {
            type: 'object',
            properties: { query: { type: 'string', description: 'What to look up' }, limit: { type: 'integer', minimum: 1 } },
            required: ['query'],
          },
          annotations: { readOnlyHint: true, openWorldHint: false },
        })),
      };
    case 'invalid CallToolRequest (error path)':
      // params.name must be a string.
      return { jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 42, arguments: { location: 'New York' } } };
  }
}
