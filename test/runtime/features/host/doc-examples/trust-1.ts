// Copied from the @example 1 of runtime/features/host/trust.ts by examples.test.ts; do not edit.
import { FileTrustStore, loadConfig } from '../../../../../runtime/features/host/index.js';

const trustStore = new FileTrustStore();
const config = loadConfig({ trustStore });
for (const request of config.pending) {
  // Show request.entry to the user (describeApproval formats it); remember a yes:
  if (request.name === 'docs') trustStore.approve(request);
}
export {};
