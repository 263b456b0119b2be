/**
 * Facts about MCP extensions that their schemas do not state: who sends each method, which
 * capability gates it, and which core methods gain a result alternative. Each entry cites the
 * extension's specification.
 */
import type { MethodDirection } from './templates/contract.js';

/** What codegen needs to know about one pinned extension beyond its schema. */
export interface ExtensionFacts {
  /** Sender of each method the schema defines; a method missing here fails generation. */
  readonly directions: Readonly<Record<string, MethodDirection>>;
  /**
   * Core methods whose result may also be one of the extension's definitions, dispatched on
   * that definition's `resultType` const.
   */
  readonly resultAlternatives: Readonly<Record<string, readonly string[]>>;
  /** Where the facts come from. */
  readonly cite: string;
}

/** Per extension name (the `name` of its pin in spec/extensions.json). */
export const EXTENSION_OVERLAY: Readonly<Record<string, ExtensionFacts>> = {
  tasks: {
    directions: {
      'tasks/get': 'client-to-server',
      'tasks/update': 'client-to-server',
      'tasks/cancel': 'client-to-server',
      'notifications/tasks': 'server-to-client',
    },
    // A server answers tools/call with a CreateTaskResult (`resultType: "task"`) instead of
    // the tool's result when the client declared the extension.
    resultAlternatives: { 'tools/call': ['CreateTaskResult'] },
    cite: 'modelcontextprotocol/ext-tasks (SEP-2663): clients poll, update and cancel tasks; servers create them from tools/call and may notify status',
  },
};
