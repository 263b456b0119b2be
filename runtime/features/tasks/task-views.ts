/**
 * How a stored task looks on the wire: the extension's detailed `tasks/get` result, and the
 * 2025-11-25 core experimental tasks' `Task`.
 */
import type { Task as CoreTask } from '../../../generated/2025-11-25/index.js';
import { ErrorCodes } from '../../../generated/protocol/error-codes.js';
import type { GetTaskResult } from '../../../generated/extensions/tasks/index.js';
import type { StoredTask } from './task-store.js';

/** `_meta` key tying a 2025-11-25 message to its task. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** A task as 2025-11-25 shows it; a tool result with `isError` is a failed task there. */
export function coreTask(task: StoredTask): CoreTask {
  const failedTool = task.status === 'completed' && task.result?.isError === true;
  return {
    taskId: task.taskId,
    status: failedTool ? 'failed' : task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttlMs,
    ...(task.pollIntervalMs !== undefined ? { pollInterval: task.pollIntervalMs } : {}),
  };
}

/** The extension's `tasks/get` result: the task's state, with its questions, result or error inlined. */
export function detailed(task: StoredTask): GetTaskResult {
  const base = {
    resultType: 'complete' as const,
    taskId: task.taskId,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    ...(task.pollIntervalMs !== undefined ? { pollIntervalMs: task.pollIntervalMs } : {}),
  };
  switch (task.status) {
    case 'input_required':
      return { ...base, status: 'input_required', inputRequests: (task.inputRequests ?? {}) as never };
    case 'completed':
      return { ...base, status: 'completed', result: task.result ?? {} };
    case 'failed':
      return { ...base, status: 'failed', error: task.error ?? { code: ErrorCodes.INTERNAL_ERROR, message: 'Task failed' } };
    default:
      return { ...base, status: task.status };
  }
}

/** A handler's result without the envelope of the request that is long answered. */
export function withoutEnvelope(result: { readonly [key: string]: unknown }): Record<string, unknown> {
  const { resultType: _type, ...rest } = result;
  return rest;
}
