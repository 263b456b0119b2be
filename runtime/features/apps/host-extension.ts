/**
 * The host's declaration of MCP Apps on its MCP connection: servers check it before offering
 * app tools (the specification's capability negotiation).
 */
import { extensionId, resourceMimeType } from '../../../generated/extensions/apps/index.js';
import type { Extension } from '../../peers/extension.js';

/**
 * The Extension a host's Client declares to say it renders apps: `capabilities.extensions`
 * gets `io.modelcontextprotocol/ui` with the app MIME type in `mimeTypes`.
 *
 * @example
 * ```ts
 * import { Client } from 'mcpgen';
 * import { appsHostExtension } from 'mcpgen/apps';
 *
 * const client = new Client({ name: 'my-host', version: '1.0.0' }, { extensions: [appsHostExtension()] });
 * ```
 */
export function appsHostExtension(): Extension {
  return { id: extensionId, settings: { mimeTypes: [resourceMimeType] } };
}
