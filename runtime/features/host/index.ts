/**
 * mcpgen's host entry (`mcpgen/host`): `.mcp.json` configuration, a manager that connects to
 * many servers at once, and the `mcpgen` CLI built on them. Node-only (child processes, files).
 */
export { expandVariables, type Expansion } from './expand.js';
export {
  CONFIG_SCOPES,
  parseServerEntry,
  type CommonServerConfig,
  type ConfigDiagnostic,
  type ConfigScope,
  type EntrySource,
  type HttpAuthHook,
  type OAuthServerConfig,
  type RemoteServerConfig,
  type ServerConfig,
  type StdioServerConfig,
} from './config.js';
export {
  loadConfig,
  projectDirectories,
  userConfigPath,
  PROJECT_CONFIG_FILE,
  LOCAL_CONFIG_FILE,
  type ConfigFile,
  type LoadConfigOptions,
  type LoadedConfig,
  type ProgrammaticServerConfig,
  type ResolvedServer,
} from './config-loader.js';
export { FileTrustStore, describeApproval, entryHash, trustFilePath, type ApprovalRequest, type TrustStore } from './trust.js';
export { terminalSafe } from './terminal-text.js';
export { ToolNameMap, MAX_TOOL_NAME_LENGTH, type ToolRef } from './tool-names.js';
export { Limiter } from './limiter.js';
export { withDeadline } from './deadline.js';
export {
  MAX_URL_ELICITATION_RETRIES,
  urlElicitationsOf,
  withUrlElicitation,
  type UrlElicitation,
  type UrlElicitationHandler,
  type UrlElicitationPrompt,
} from './url-elicitation.js';
export {
  choicesOf,
  formFields,
  parseFormAnswer,
  type FormElicitationAnswer,
  type FormElicitationHandler,
  type FormElicitationPrompt,
  type FormField,
  type FormFieldSchema,
} from './form-elicitation.js';
export type { HostTransportKind } from './transports.js';
export { ServerConnection, type ReconnectSettings, type ServerConnectionOptions, type ServerState, type ServerStatus } from './server-connection.js';
export {
  ConnectionManager,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_LOCAL_CONCURRENCY,
  DEFAULT_REMOTE_CONCURRENCY,
  type ConnectionManagerOptions,
  type HostTool,
  type ToolAddress,
} from './manager.js';
export {
  LoginRequiredError,
  NodeOAuth,
  oauthDirectory,
  type LoginOptions,
  type LoginResult,
  type NodeOAuthOptions,
  type OAuthProviderFactory,
} from './oauth.js';
export {
  ResultSizer,
  blockSize,
  resultSize,
  resultsDirectory,
  DEFAULT_RESULT_BUDGET_CHARS,
  DEFAULT_RESULT_MAX_DIRECTORY_BYTES,
  DEFAULT_RESULT_MAX_FILES,
  DEFAULT_RESULT_PREVIEW_CHARS,
  type ResultOrigin,
  type ResultSizingOptions,
} from './result-sizing.js';
export { runCli, USAGE, type CliIo } from './cli-run.js';
export { EXIT, parseArgs, splitCommandLine, keyValueArguments, UsageError, type CliArgs } from './cli-args.js';
