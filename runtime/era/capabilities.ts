/** A capabilities object as declared on the wire (ClientCapabilities / ServerCapabilities). */
export type CapabilityObject = { readonly [key: string]: unknown };

/**
 * True when `capabilities` declares the flag at `path`. A member counts when present and not
 * `false`: `tools: {}` declares tools, `resources: { subscribe: false }` does not declare
 * subscriptions.
 */
export function hasCapability(capabilities: CapabilityObject | undefined, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return false;
    node = (node as Record<string, unknown>)[key];
    if (node === undefined || node === null || node === false) return false;
  }
  return true;
}

/** `a.b.c` for messages. */
export function describePath(path: readonly string[]): string {
  return path.join('.');
}
