import Handlebars from 'handlebars';
import { escape as escapeHtml } from 'html-escaper';
import { LRUCache } from 'lru-cache';

/**
 * The phishing template engine. Templates are Handlebars, restricted to plain `{{variable}}`
 * mustaches of a known list: an administrator's template can print a value, escaped, and
 * nothing else (no unescaped output, helpers, partials, blocks or paths into objects), so what
 * a template can do is fully known from its source. Landing pages: templates.landing.presenter.ts.
 */

/** The values every template may use: the recipient's. */
export interface RecipientVars {
  first_name: string;
  last_name: string;
  email: string;
  company: string;
}

/** An email's values: the recipient's, their personal link, and the domain it is sent from. */
export interface EmailVars extends RecipientVars {
  link: string;
  sender_domain: string;
}

export const LANDING_VARIABLES = ['first_name', 'last_name', 'email', 'company'] as const;
/** `sender_name` is the template's own sender name, rendered first. */
export const EMAIL_VARIABLES = [...LANDING_VARIABLES, 'link', 'sender_name', 'sender_domain'] as const;
// A link in a subject or a sender name would be visible text, never a link; a name cannot use itself.
export const SUBJECT_VARIABLES = [...LANDING_VARIABLES, 'sender_name', 'sender_domain'] as const;
export const SENDER_NAME_VARIABLES = [...LANDING_VARIABLES, 'sender_domain'] as const;
const KNOWN_VARIABLES: ReadonlySet<string> = new Set(EMAIL_VARIABLES);

/** A template that did not pass the checks reached a renderer (stored content is checked on save). */
export class PhishingTemplateError extends Error {}

// What the parser's token names mean to someone writing a template.
const UNEXPECTED: Record<string, string> = {
  EOF: 'a block is not closed (and blocks are not allowed)',
  CLOSE: '{{ }} holds no variable name',
  CLOSE_UNESCAPED: '}}} closes a {{ opened with two braces',
  OPEN_ENDBLOCK: '{{/…}} closes a block that was never opened',
  INVERSE: '{{else}} outside a block',
  INVALID: 'unexpected character inside {{ }}',
};

/** The parser's error as one line: where, and what is wrong in words. */
function syntaxProblem(source: string, err: unknown): string {
  const unclosed = /\{\{(?![\s\S]*\}\})/.exec(source);
  if (unclosed) {
    const line = source.slice(0, unclosed.index).split('\n').length;
    return `syntax error on line ${line}: {{ is not closed with }}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  const line = /on line (\d+)/.exec(message)?.[1] ?? /- (\d+):\d+$/.exec(message)?.[1];
  const got = /got '(\w+)'/.exec(message)?.[1] ?? '';
  const what = UNEXPECTED[got] ?? (got ? `unexpected ${got.toLowerCase()}` : message.split('\n')[0]);
  return `syntax error${line ? ` on line ${line}` : ''}: ${what}`;
}

/** Why one statement is not allowed, or null; `used` collects the variables it prints. */
function statementProblem(
  statement: hbs.AST.Statement,
  allowed: readonly string[],
  used: Set<string>,
): string | null {
  switch (statement.type) {
    case 'ContentStatement':
    case 'CommentStatement':
      return null;
    case 'Decorator':
    case 'DecoratorBlock':
      return 'decorators ({{* …}}) are not allowed';
    case 'BlockStatement':
      return `blocks such as {{#${(statement as hbs.AST.BlockStatement).path.original}}} are not allowed`;
    case 'PartialStatement':
    case 'PartialBlockStatement':
      return 'partials ({{> …}}) are not allowed';
    case 'MustacheStatement':
      break;
    default:
      return `{{${statement.type}}} is not allowed`;
  }
  const node = statement as hbs.AST.MustacheStatement;
  const path = node.path as hbs.AST.PathExpression;
  if (path.type !== 'PathExpression') return 'only variables may be written inside {{ }}';
  const shown = path.original;
  if (!node.escaped) return `{{{${shown}}}} and {{& ${shown}}} (output without escaping) are not allowed`;
  if ((node.params?.length ?? 0) > 0 || node.hash)
    return `{{${shown} …}}: helpers and arguments are not allowed`;
  const name = path.parts[0] ?? '';
  if (path.data || path.depth > 0 || path.parts.length !== 1 || shown !== name) {
    return `{{${shown}}} is not allowed: write a plain variable such as {{first_name}}`;
  }
  if (!KNOWN_VARIABLES.has(name)) return `unknown variable {{${name}}}`;
  if (!allowed.includes(name)) return `{{${name}}} cannot be used here`;
  used.add(name);
  return null;
}

export interface TemplateCheck {
  /** Readable problems; empty when the template may be saved and rendered. */
  problems: string[];
  /** The variables it prints. */
  variables: Set<string>;
  /** False for a syntax error (nothing else could be checked). */
  parsed: boolean;
}

/** Parses a template and checks that it uses only plain `{{variable}}`s of `allowed`. */
export function checkTemplateSource(source: string, allowed: readonly string[]): TemplateCheck {
  const variables = new Set<string>();
  let program: hbs.AST.Program;
  try {
    program = Handlebars.parse(source);
  } catch (err) {
    return { problems: [syntaxProblem(source, err)], variables, parsed: false };
  }
  const problems: string[] = [];
  for (const node of program.body) {
    const problem = statementProblem(node, allowed, variables);
    if (problem && !problems.includes(problem)) problems.push(problem);
  }
  return { problems, variables, parsed: true };
}

// A separate environment: helpers registered elsewhere never reach these templates.
const engine = Handlebars.create();
const compiled = new LRUCache<string, HandlebarsTemplateDelegate>({ max: 2000 });

/** Compiles a checked template once per process; `escaped` is false for plain-text output. */
function compile(source: string, allowed: readonly string[], escaped: boolean): HandlebarsTemplateDelegate {
  const key = `${escaped ? 'html' : 'text'}:${allowed.join(',')}\0${source}`;
  let template = compiled.get(key);
  if (!template) {
    const { problems } = checkTemplateSource(source, allowed);
    if (problems.length > 0) throw new PhishingTemplateError(`invalid template: ${problems[0]}`);
    template = engine.compile(source, { noEscape: !escaped, knownHelpersOnly: true, data: false });
    compiled.set(key, template);
  }
  return template;
}

// Controls, line and paragraph separators, and bidirectional overrides (which can make a
// name display as something else) never come from a person's data into a message.
const UNSAFE_IN_VALUE = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
const LINE_BREAKS = /[\p{Cc}\u2028\u2029]+/gu;

/** A person's value as it may appear in a message. */
export const cleanValue = (value: unknown): string => String(value ?? '').replace(UNSAFE_IN_VALUE, '');

function cleanValues<T extends object>(vars: T): Record<keyof T, string> {
  const out = {} as Record<keyof T, string>;
  for (const [key, value] of Object.entries(vars)) out[key as keyof T] = cleanValue(value);
  return out;
}

/** A header's text: one line (CR and LF would start another header), nothing escaped. */
const oneLine = (text: string) => text.replace(LINE_BREAKS, ' ').trim();

/** The parts of a template that make the email. `sender_address` is the local part only. */
export interface EmailTemplate {
  subject: string;
  sender_name: string;
  sender_address: string;
  html: string;
  text: string;
}

export interface RenderedEmail {
  subject: string;
  sender_name: string;
  /** `<local part>@<sender_domain>` (the local part alone when no domain is given). */
  sender_address: string;
  html: string;
  text: string;
}

function trackingImage(url: string): string {
  return `<img src="${escapeHtml(url)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">`;
}

/**
 * A sent simulation's HTML without its open-tracking image: for an administrator reading it in
 * the Outbox, whose browser would otherwise record an open as the recipient's.
 */
export function withoutTrackingImage(html: string): string {
  return html.replace(
    /<img src="[^"]*\/t\/[A-Za-z0-9_-]{32}\.png" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0">/g,
    '',
  );
}

/** Just before the last `</body>`, or at the end when there is none. */
function insertBeforeBodyEnd(html: string, insert: string): string {
  const ends = [...html.matchAll(/<\/body\s*>/gi)];
  const last = ends[ends.length - 1];
  if (last?.index === undefined) return html + insert;
  return html.slice(0, last.index) + insert + html.slice(last.index);
}

/** A checked template rendered with `vars` (control characters removed), escaped for HTML or not. */
export function renderChecked(
  source: string,
  allowed: readonly string[],
  vars: object,
  options: { escape: boolean },
): string {
  return compile(source, allowed, options.escape)(cleanValues(vars));
}

/** Everything of an email but its HTML: the headers' text and the text body. */
export function renderEmailText(template: EmailTemplate, vars: EmailVars): Omit<RenderedEmail, 'html'> {
  const plain = { escape: false };
  const sender_name = oneLine(renderChecked(template.sender_name, SENDER_NAME_VARIABLES, vars, plain));
  const all = { ...vars, sender_name };
  const local = oneLine(template.sender_address);
  const domain = oneLine(cleanValue(vars.sender_domain));
  return {
    subject: oneLine(renderChecked(template.subject, SUBJECT_VARIABLES, all, plain)),
    sender_name,
    sender_address: domain ? `${local}@${domain}` : local,
    text: renderChecked(template.text, EMAIL_VARIABLES, all, plain),
  };
}

/**
 * One person's email: HTML with every value escaped and the open-tracking image before
 * `</body>`, text with values as written minus control characters, and a subject and sender
 * name that are one line each.
 */
export function renderEmail(
  template: EmailTemplate,
  vars: EmailVars,
  options: { trackingImageUrl: string },
): RenderedEmail {
  const rendered = renderEmailText(template, vars);
  const values = { ...vars, sender_name: rendered.sender_name };
  const html = renderChecked(template.html, EMAIL_VARIABLES, values, { escape: true });
  return { ...rendered, html: insertBeforeBodyEnd(html, trackingImage(options.trackingImageUrl)) };
}
