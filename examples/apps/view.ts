/**
 * The greeter's View, the code inside the app's iframe: it shows the result of the tool call
 * the host renders it for, and its form calls the `greet` tool again through the host.
 * serve.ts bundles it into the app resource's HTML.
 */
// #region view
import { AppClient } from '../../runtime/features/apps/index.js';
import type { CallToolResult } from '../../generated/2025-11-25/index.js';

const form = document.querySelector<HTMLFormElement>('#greet')!;
const input = document.querySelector<HTMLInputElement>('#name')!;
const output = document.querySelector<HTMLOutputElement>('#result')!;

function show(result: CallToolResult): void {
  output.textContent = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  output.dataset.error = String(result.isError === true);
}

const app = new AppClient({ name: 'greeter-form', version: '1.0.0' }, {
  onToolInput: (args) => {
    if (typeof args.name === 'string') input.value = args.name;
  },
  onToolResult: show,
});
await app.connect();
app.autoResize(document.documentElement);

form.addEventListener('submit', (event) => {
  event.preventDefault();
  output.textContent = '…';
  app.callTool('greet', { name: input.value }).then(show, (error: unknown) => {
    output.textContent = String(error);
  });
});
// #endregion view
