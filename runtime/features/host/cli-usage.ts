/** The `mcpgen --help` text. */
import { APPROVE_ENV } from './cli-trust.js';

export const USAGE = `Usage: mcpgen [options] <command> [arguments]

Commands:
  servers                               connect every configured server and show its status
  tools [server]                        list the tools of every server, or of one, with
                                        their parameters ([name] is optional)
  call <server> <tool> [--args JSON | key=value ...]
                                        call a tool
  resources [server]                    list resources and resource templates
  read <server> <uri>                   read a resource
  prompts [server]                      list prompts
  prompt <server> <name> [key=value ...]
                                        get a prompt
  complete <server> <prompt | template> <argument>[=prefix] [name=value ...]
                                        the values the server suggests for an argument
  login <server>                        authorize with the server's OAuth in a browser and keep
                                        the tokens (the other commands then use them)
  logout <server>                       forget the server's stored OAuth tokens

Options:
  --json                 print JSON for scripts
  --config FILE          read FILE too, over the project files (repeatable)
  --cwd DIR              look for .mcp.json from DIR upwards (default: the current directory)
  --stdio "CMD ARGS"     use this one stdio server instead of the configuration
  --url URL              use this one Streamable HTTP (or ws:// WebSocket) server instead of
                         the configuration
  --name NAME            the one-off server's name (default: stdio or url)
  --timeout MS           connect timeout (default: $MCP_TIMEOUT or 30000)
  --call-timeout MS      request timeout (default: 60000)
  --max-result CHARS     budget of a tool result (default: 100000); larger ones are cut or saved
  --result-strategy S    truncate (keep the start, with a notice; default) or persist (save the
                         text to a file and print a pointer to it)
  --result-dir DIR       where persist saves (default: $XDG_CACHE_HOME/mcpgen/tool-results)
  --approve              use the project's .mcp.json servers for this run without asking
                         (also: ${APPROVE_ENV}=1)
  --no-browser           login: print the authorization URL instead of opening a browser
  -h, --help             show this help

Configuration: .mcp.json files from the repository root (the nearest directory with .git; outside
one, only the current directory) down to the current directory (closer files win),
.mcp.local.json beside them (wins over them), and $XDG_CONFIG_HOME/mcpgen/mcp.json (lowest).
Project and local servers run only once approved: mcpgen asks on a terminal and remembers the
answer in $XDG_CONFIG_HOME/mcpgen/trusted.json (until the entry changes).
OAuth tokens from login: $XDG_CONFIG_HOME/mcpgen/oauth/ (refreshed silently; a server that
needs you to authorize again shows needs-auth).

Exit status: 0 success, 1 a request failed or the tool reported an error, 2 bad usage or
configuration, 3 a server could not be connected (or is not approved).
`;
