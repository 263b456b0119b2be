/** An RFC 6570 expression operator; '' is simple string expansion. */
export type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

/** How an operator expands (RFC 6570 appendix A). */
export interface OperatorRule {
  /** Written before the first defined variable. */
  readonly first: string;
  /** Written between defined variables (and exploded items). */
  readonly separator: string;
  /** Whether each value is written as `name=value`. */
  readonly named: boolean;
  /** What follows the name of a named variable whose value is empty. */
  readonly ifEmpty: string;
  /** Whether reserved characters pass unencoded. */
  readonly allowReserved: boolean;
}

export const OPERATOR_RULES: Readonly<Record<Operator, OperatorRule>> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', allowReserved: false },
};

/** One variable of an expression: `name`, `name*` (explode) or `name:3` (prefix). */
export interface VarSpec {
  readonly name: string;
  readonly explode: boolean;
  /** Maximum characters of a string value, from the `:n` modifier. */
  readonly prefix: number | undefined;
}

/** A `{…}` expression. */
export interface ExpressionPart {
  readonly kind: 'expression';
  readonly operator: Operator;
  readonly rule: OperatorRule;
  readonly variables: readonly VarSpec[];
}

/** Text outside expressions, copied as is. */
export interface LiteralPart {
  readonly kind: 'literal';
  readonly text: string;
}

export type TemplatePart = LiteralPart | ExpressionPart;

const OPERATOR_CHARS = new Set(['+', '#', '.', '/', ';', '?', '&']);
/** Operator characters RFC 6570 reserves for future extensions. */
const RESERVED_OPERATORS = new Set(['=', ',', '!', '@', '|']);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const PREFIX = /^[1-9][0-9]{0,3}$/;

/** Splits a URI template into literals and expressions; throws SyntaxError on malformed input. */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let position = 0;
  while (position < template.length) {
    const open = template.indexOf('{', position);
    const close = template.indexOf('}', position);
    if (close !== -1 && (open === -1 || close < open)) throw syntaxError(template, close, 'unmatched "}"');
    if (open === -1) {
      parts.push({ kind: 'literal', text: template.slice(position) });
      break;
    }
    if (open > position) parts.push({ kind: 'literal', text: template.slice(position, open) });
    const end = template.indexOf('}', open);
    if (end === -1) throw syntaxError(template, open, 'unclosed "{"');
    parts.push(parseExpression(template, open, template.slice(open + 1, end)));
    position = end + 1;
  }
  return parts;
}

function parseExpression(template: string, at: number, body: string): ExpressionPart {
  if (body.includes('{')) throw syntaxError(template, at, 'nested "{"');
  const head = body.charAt(0);
  if (RESERVED_OPERATORS.has(head)) throw syntaxError(template, at, `operator "${head}" is reserved`);
  const operator = (OPERATOR_CHARS.has(head) ? head : '') as Operator;
  const list = operator === '' ? body : body.slice(1);
  if (list === '') throw syntaxError(template, at, 'empty expression');
  const variables = list.split(',').map((spec): VarSpec => {
    let name = spec;
    let explode = false;
    let prefix: number | undefined;
    if (spec.endsWith('*')) {
      explode = true;
      name = spec.slice(0, -1);
    } else {
      const colon = spec.indexOf(':');
      if (colon !== -1) {
        const digits = spec.slice(colon + 1);
        if (!PREFIX.test(digits)) throw syntaxError(template, at, `bad prefix modifier in "${spec}"`);
        prefix = Number(digits);
        name = spec.slice(0, colon);
      }
    }
    if (!VARNAME.test(name)) throw syntaxError(template, at, `bad variable name "${name}"`);
    return { name, explode, prefix };
  });
  return { kind: 'expression', operator, rule: OPERATOR_RULES[operator], variables };
}

function syntaxError(template: string, at: number, reason: string): SyntaxError {
  return new SyntaxError(`Invalid URI template ${JSON.stringify(template)} at ${at}: ${reason}`);
}
