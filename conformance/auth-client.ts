/**
 * The conformance client's side of the `auth/*` scenarios: an OAuth provider for mcpgen's
 * transports built from the scenario's context, and what the client does once connected.
 *
 * The suite's mock authorization server approves every authorization request at once by
 * redirecting to the redirect URI, so "the user" here is a fetch that does not follow the
 * redirect and hands its Location back to the flow, as a browser landing on the redirect
 * URI would.
 */
import type { Client } from '../runtime/index.js';
import { idJagAssertion, type JwsAlgorithm, type OAuthClientProvider } from '../runtime/features/auth/index.js';

const REDIRECT_URI = 'http://localhost:3000/callback';
/** The Client ID Metadata Document URL the suite expects (auth/basic-cimd); the suite never fetches it. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** The JSON the suite passes in MCP_CONFORMANCE_CONTEXT for some scenarios. */
interface ScenarioContext {
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly issuer?: string;
  readonly private_key_pem?: string;
  readonly signing_algorithm?: string;
  /** auth/enterprise-managed-authorization: the enterprise IdP and the user's ID token there. */
  readonly idp_client_id?: string;
  readonly idp_id_token?: string;
  readonly idp_token_endpoint?: string;
  /** auth/wif-jwt-bearer: the workload's JWT (and deliberately broken ones the client does not use). */
  readonly valid_jwt?: string;
}

function readContext(): ScenarioContext {
  const text = process.env.MCP_CONFORMANCE_CONTEXT;
  if (text === undefined || text === '') return {};
  return JSON.parse(text) as ScenarioContext;
}

/** Whether `scenario` is an authorization scenario. */
export function isAuthScenario(scenario: string): boolean {
  return scenario.startsWith('auth/');
}

/** Follows the authorization URL one hop, as the user's browser would, and returns where the server sent it. */
async function approve(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (location === null) throw new Error(`The authorization endpoint answered HTTP ${response.status} without a redirect`);
  return location;
}

/**
 * The OAuth provider for `scenario`: interactive by default (with DPoP in the DPoP scenarios),
 * client credentials, the workload's JWT bearer grant or enterprise-managed authorization where
 * the context carries what they need.
 */
export function authProviderFor(scenario: string): OAuthClientProvider {
  const context = readContext();
  // The suite's mock authorization server listens on a port the client learns only from
  // discovery, so its credentials are for whatever issuer the scenario's metadata names.
  const issuer = context.issuer ?? ((): boolean => true);
  // The 2025-03-26 scenarios test the default endpoints of servers without metadata.
  const legacyEndpointFallback = scenario.startsWith('auth/2025-03-26-');
  if (context.idp_token_endpoint !== undefined && context.idp_id_token !== undefined) {
    return {
      jwtBearer: {
        clientId: context.client_id,
        clientSecret: context.client_secret,
        issuer,
        assertion: idJagAssertion({ tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id, idToken: context.idp_id_token }),
      },
    };
  }
  if (context.valid_jwt !== undefined) {
    const workloadJwt = context.valid_jwt;
    return { jwtBearer: { clientId: context.client_id, issuer, assertion: () => workloadJwt } };
  }
  if (scenario.startsWith('auth/client-credentials-') && context.client_id !== undefined) {
    return {
      clientCredentials: {
        clientId: context.client_id,
        clientSecret: context.client_secret,
        privateKey: context.private_key_pem,
        signingAlgorithm: context.signing_algorithm as JwsAlgorithm | undefined,
        issuer,
      },
    };
  }
  return {
    clientMetadata: { client_name: 'mcpgen-conformance-client' },
    redirectUrl: REDIRECT_URI,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientInformation: (issuer) =>
      context.client_id !== undefined && (context.issuer === undefined || context.issuer === issuer)
        ? { client_id: context.client_id, ...(context.client_secret !== undefined ? { client_secret: context.client_secret } : {}) }
        : undefined,
    redirectToAuthorization: approve,
    dpop: scenario.startsWith('auth/dpop'),
    legacyEndpointFallback,
  };
}

/** Lists the tools and calls the first, so that per-operation scope challenges (step-up) happen. */
export async function runAuthScenario(client: Client, timeout: number): Promise<void> {
  if (client.serverCapabilities?.tools === undefined) return;
  const tools = await client.listAll('tools/list', undefined, { timeout });
  const first = tools[0];
  if (first !== undefined) await client.callTool({ name: first.name, arguments: {} }, { timeout });
}
