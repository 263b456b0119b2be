import { Client, createLinkedPair, type ClientOptions, McpServer, Server, type Transport } from '../../../../runtime/index.js';
import { SkillsExtension, type SkillDefinition } from '../../../../runtime/features/skills/index.js';

export const PDF_SKILL_MD = '---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: "2.1"\n---\n\n# PDF processing\n\nSee references/FORMS.md.\n';
export const FORMS_MD = '# Forms\n\nFill every field.\n';

/** A skill with a supporting file in a subdirectory and a binary asset. */
export const pdfSkill: SkillDefinition = {
  path: 'pdf-processing',
  files: { 'SKILL.md': PDF_SKILL_MD, 'references/FORMS.md': FORMS_MD, 'assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255]) },
};

export const refundsSkill: SkillDefinition = {
  path: 'acme/billing/refunds',
  files: { 'SKILL.md': '---\nname: refunds\ndescription: Process refund requests per policy\nlicense: Apache-2.0\n---\nRefund within 30 days.\n' },
};

export const info = { name: 'skills-test', version: '1.0.0' };

/** A low-level Server declaring resources (with listChanged) that serves `skills`. */
export function skillsServer(skills: SkillsExtension): Server {
  return new Server(info, { capabilities: { resources: { listChanged: true } }, extensions: [skills] });
}

/** Connects a Client speaking `protocolVersion` to a new server over an in-memory pair (serialized like a wire). */
export async function connectedPair(serverFor: () => Server | McpServer, protocolVersion: string, options: ClientOptions = {}): Promise<{ client: Client; server: Server | McpServer }> {
  const server = serverFor();
  const [clientSide, serverSide] = createLinkedPair({ serialize: true });
  await server.connect(serverSide as Transport);
  const client = new Client(info, { protocolVersion, ...options });
  await client.connect(clientSide);
  return { client, server };
}
