/** What {@link getDisplayName} reads: any tool, prompt, resource or template. */
export interface Displayable {
  readonly name: string;
  readonly title?: string | undefined;
  readonly annotations?: { readonly title?: string | undefined } | undefined;
}

/**
 * The name to show a user for a tool, prompt, resource or template, in the order the schema
 * gives: `title`, then (for tools) `annotations.title`, then `name`.
 *
 * @example
 * ```ts
 * import { Client, getDisplayName } from 'mcpgen';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 *
 * for (const tool of await client.listAll('tools/list')) console.log(getDisplayName(tool));
 * ```
 */
export function getDisplayName(item: Displayable): string {
  if (item.title !== undefined && item.title !== '') return item.title;
  const annotated = item.annotations?.title;
  if (annotated !== undefined && annotated !== '') return annotated;
  return item.name;
}
