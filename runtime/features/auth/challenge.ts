/**
 * `WWW-Authenticate` challenges (RFC 9110 §11.6.1), both directions: the client reads the
 * Bearer challenge of a 401 or 403 (RFC 6750 §3, RFC 9728 §5.1), the resource server writes one.
 */

/** The parameters of one challenge, with lower-case names. */
export interface AuthChallenge {
  /** The scheme in lower case, e.g. `bearer`. */
  readonly scheme: string;
  readonly params: Readonly<Record<string, string>>;
}

/** What a Bearer challenge tells the client. */
export interface BearerChallenge {
  /** The Protected Resource Metadata URL (RFC 9728 §5.1). */
  readonly resourceMetadata?: string;
  /** The scopes the request needs, space-separated. */
  readonly scope?: string;
  /** `invalid_token`, `insufficient_scope`, … */
  readonly error?: string;
  readonly errorDescription?: string;
}

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

/** Parses a `WWW-Authenticate` value into its challenges; malformed parts are skipped. */
export function parseChallenges(header: string): AuthChallenge[] {
  const challenges: { scheme: string; params: Record<string, string> }[] = [];
  let i = 0;
  const skip = (pattern: RegExp): void => {
    while (i < header.length && pattern.test(header[i]!)) i++;
  };
  const token = (): string => {
    const start = i;
    while (i < header.length && TOKEN.test(header[i]!)) i++;
    return header.slice(start, i);
  };
  while (i < header.length) {
    skip(/[\s,]/);
    const word = token();
    if (word === '') {
      i++;
      continue;
    }
    skip(/[ \t]/);
    if (header[i] === '=' && challenges.length > 0) {
      // An auth-param of the current challenge.
      i++;
      skip(/[ \t]/);
      let value = '';
      if (header[i] === '"') {
        i++;
        while (i < header.length && header[i] !== '"') {
          if (header[i] === '\\' && i + 1 < header.length) i++;
          value += header[i];
          i++;
        }
        i++;
      } else {
        const start = i;
        while (i < header.length && header[i] !== ',' && !/\s/.test(header[i]!)) i++;
        value = header.slice(start, i);
      }
      challenges[challenges.length - 1]!.params[word.toLowerCase()] = value;
      continue;
    }
    if (header[i] === '=') {
      // token68 or stray parameter without a scheme: skip to the next comma.
      while (i < header.length && header[i] !== ',') i++;
      continue;
    }
    challenges.push({ scheme: word.toLowerCase(), params: {} });
  }
  return challenges;
}

/** The Bearer challenge of a response's `WWW-Authenticate` header, if it has one. */
export function bearerChallengeOf(response: Response): BearerChallenge | undefined {
  const header = response.headers.get('www-authenticate');
  if (header === null) return undefined;
  const bearer = parseChallenges(header).find((challenge) => challenge.scheme === 'bearer');
  if (bearer === undefined) return undefined;
  const { params } = bearer;
  return {
    ...(params.resource_metadata !== undefined ? { resourceMetadata: params.resource_metadata } : {}),
    ...(params.scope !== undefined && params.scope.trim() !== '' ? { scope: params.scope.trim() } : {}),
    ...(params.error !== undefined ? { error: params.error } : {}),
    ...(params.error_description !== undefined ? { errorDescription: params.error_description } : {}),
  };
}

/** Formats a Bearer challenge; values are quoted, with `"` and `\` escaped. */
export function formatBearerChallenge(params: Readonly<Record<string, string | undefined>>): string {
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `${name}="${value.replace(/["\\]/g, (char) => `\\${char}`)}"`);
  return parts.length === 0 ? 'Bearer' : `Bearer ${parts.join(', ')}`;
}
