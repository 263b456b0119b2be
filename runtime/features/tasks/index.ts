/**
 * The tasks extension (io.modelcontextprotocol/tasks, SEP-2663): long-running requests answered
 * with a task handle, polled, fed with input and cancelled. The wire types and validators are
 * generated (`mcpgen/extensions/tasks`); this module is the runtime.
 */
export { TasksExtension, DEFAULT_POLL_INTERVAL_MS, DEFAULT_TASK_TTL_MS, type TasksExtensionOptions, type TaskRequestOptions, type TaskRunOptions, type TaskWork } from './server.js';
export { TasksClient, isTaskHandle, type TasksClientOptions, type TaskWaitOptions } from './client.js';
export { InMemoryTaskStore } from './memory-store.js';
export { applyTaskChange, TERMINAL_STATUSES, type StoredInputRequest, type StoredTask, type TaskChange, type TaskStatus, type TaskStore } from './task-store.js';
export { extensionId as TASKS_EXTENSION_ID, type CreateTaskResult, type GetTaskResult, type DetailedTask } from '../../../generated/extensions/tasks/index.js';
