/**
 * The root entry (`mcpgen`, runtime/index.ts) is a curated list: what a user building a server
 * or a client needs. Its values are pinned here, so that adding one (or dropping one) is a
 * change a reviewer sees; low-level names go to `mcpgen/advanced` or `mcpgen/http` instead.
 */
import { describe, expect, it } from 'vitest';
import * as root from '../../runtime/index.js';

const ROOT_VALUES = [
  'Client',
  'HttpTransportError',
  'InputRequiredSignal',
  'ListCache',
  'McpServer',
  'ProtocolError',
  'SdkError',
  'Server',
  'Stateful',
  'Stateless',
  'StreamableHttpClientTransport',
  'UriTemplate',
  'applyElicitationDefaults',
  'assertToolResult',
  'checkToolResult',
  'connectWithFallback',
  'createLinkedPair',
  'createMcpHttpHandler',
  'elicitationDefaults',
  'findHttpTransportError',
  'getDisplayName',
  'httpExtra',
  'latestRevision',
  'latestStatefulRevision',
  'latestStatelessRevision',
  'releasedRevisions',
  'revisions',
  'statefulRevisions',
  'statelessRevisions',
  'withElicitationDefaults',
];

describe('the root entry', () => {
  it('exports exactly the curated values', () => {
    expect(Object.keys(root).sort()).toEqual([...ROOT_VALUES].sort());
  });

  it('stays small', () => {
    expect(Object.keys(root).length).toBeLessThanOrEqual(60);
  });
});
