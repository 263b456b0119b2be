/**
 * The sandbox proxy page's script, served from its own origin: it renders the View the host
 * sends under the View's CSP and relays messages between the two. serve.ts bundles it, with the
 * host page's origin in the page.
 */
// #region sandbox
import { runSandboxProxy } from '../../runtime/features/apps/index.js';

const hostOrigin = document.querySelector('meta[name="host-origin"]')!.getAttribute('content')!;
runSandboxProxy({ hostOrigin, onerror: (error) => console.error(error) });
// #endregion sandbox
