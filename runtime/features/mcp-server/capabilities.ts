import type * as Stateful from '../../../generated/protocol/stateful.js';
import type { ServerHost } from './handlers.js';
import type { McpServerOptions } from './options.js';

/**
 * What a Server created now declares: each feature that has registrations (or that the options
 * declare up front), then `options.capabilities` on top.
 */
export function deriveCapabilities(host: ServerHost, options: Pick<McpServerOptions, 'capabilities' | 'listChanged' | 'logging'>): Stateful.ServerCapabilities {
  const declared = options.capabilities ?? {};
  const listChanged = options.listChanged === 'off' ? {} : { listChanged: true };
  const { tools, resources, templates, prompts } = host;
  const capabilities: Stateful.ServerCapabilities = { ...declared };
  if (tools.size > 0 || declared.tools !== undefined) capabilities.tools = { ...listChanged, ...declared.tools };
  if (resources.size > 0 || templates.size > 0 || declared.resources !== undefined) {
    capabilities.resources = { subscribe: true, ...listChanged, ...declared.resources };
  }
  if (prompts.size > 0 || declared.prompts !== undefined) capabilities.prompts = { ...listChanged, ...declared.prompts };
  // Prompt arguments and template variables are what completion/complete completes.
  if (prompts.size > 0 || templates.size > 0 || declared.completions !== undefined) capabilities.completions = { ...declared.completions };
  if (options.logging !== false) capabilities.logging = { ...declared.logging };
  return capabilities;
}
