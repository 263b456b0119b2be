// Copied from the @example 2 of runtime/node/host/oauth.ts by examples.test.ts; do not edit.
import { oauthDirectory } from '../../../../../runtime/node/host/index.js';

oauthDirectory({ XDG_CONFIG_HOME: '/home/ada/.config' }); // '/home/ada/.config/mcpgen/oauth'
export {};
