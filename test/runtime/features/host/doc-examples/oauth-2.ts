// Copied from the @example 2 of runtime/features/host/oauth.ts by examples.test.ts; do not edit.
import { oauthDirectory } from '../../../../../runtime/features/host/index.js';

oauthDirectory({ XDG_CONFIG_HOME: '/home/ada/.config' }); // '/home/ada/.config/mcpgen/oauth'
export {};
