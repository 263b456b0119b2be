/**
 * The greeter's MCP server: one app, the `greet` tool rendered by a form (its `ui://` resource),
 * registered with `registerApp` in one call. `viewScript` is the View's bundled script
 * (serve.ts builds it from view.ts).
 */
// #region server
import { McpServer } from '../../runtime/index.js';
import { registerApp } from '../../runtime/features/apps/index.js';

/** The View's document; the script is inlined, so the app needs no network at all. */
export function viewHtml(viewScript: string): string {
  // A script's text may not contain `</script`; escaping the slash keeps the same JavaScript.
  const inline = viewScript.replace(/<\/script/gi, '<\\/script');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Greeter</title>
<style>body{font:16px system-ui;margin:12px}output{display:block;margin-top:8px;font-weight:600}</style></head>
<body><form id="greet"><label>Name <input id="name" name="name" required></label> <button type="submit">Greet</button></form>
<output id="result" aria-live="polite"></output>
<script type="module">${inline}</script></body></html>`;
}

export function createGreeter(viewScript: string, onCall: (name: string) => void = () => {}): McpServer {
  const mcp = new McpServer({ name: 'greeter', version: '1.0.0' });
  registerApp(mcp, 'greet', {
    description: 'Greets someone by name; hosts with MCP Apps show a form to greet someone else',
    inputSchema: { type: 'object', properties: { name: { type: 'string', minLength: 1 } }, required: ['name'] },
    resourceUri: 'ui://greeter/form',
    resource: { html: viewHtml(viewScript), prefersBorder: true },
  }, ({ name }) => {
    onCall(name);
    return { content: [{ type: 'text', text: `Hello, ${name}!` }] };
  });
  return mcp;
}
// #endregion server
