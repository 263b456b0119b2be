/** A maintainer `spec` command that cannot go ahead: one line saying why; exit code 2 marks a usage error, 1 a refusal. */
export class SpecCommandError extends Error {
  override name = 'SpecCommandError';
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}
