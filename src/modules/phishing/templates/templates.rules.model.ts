import { FieldErrorCollector, type FieldErrors } from '../../../core/errors.js';
import { checkName, checkText } from '../../../core/fields.js';
import {
  checkTemplateSource,
  EMAIL_VARIABLES,
  type EmailTemplate,
  LANDING_VARIABLES,
  SENDER_NAME_VARIABLES,
  SUBJECT_VARIABLES,
  type TemplateCheck,
} from './templates.render.model.js';

/**
 * What a phishing template may hold, checked when an administrator saves one and when the
 * built-in library is read: lengths, difficulty, category, red flags that quote the message,
 * and template sources that the engine (templates.render.model.ts) accepts.
 */

export const RED_FLAG_PARTS = ['sender', 'subject', 'body', 'link'] as const;
export type RedFlagPart = (typeof RED_FLAG_PARTS)[number];

/** What in an email should have raised suspicion, and the exact text of its part to highlight. */
export interface RedFlag {
  text: string;
  part: RedFlagPart;
  quote: string;
}

export const PHISHING_CATEGORIES = [
  'credential_harvest',
  'invoice',
  'parcel_delivery',
  'hr_payroll',
  'it_password_reset',
  'mfa_prompt',
  'file_share',
  'executive_request',
  'calendar_invite',
  'voicemail',
  'benefits_enrollment',
  'other',
] as const;
export type PhishingCategory = (typeof PHISHING_CATEGORIES)[number];

/** Every bound of a template's fields (for the editor as well as the checks). */
export const PHISHING_TEMPLATE_LIMITS = {
  name_max: 150,
  subject_max: 200,
  sender_name_max: 100,
  // RFC 5321's limit for the part before the @.
  sender_address_max: 64,
  html_max: 200_000,
  text_max: 50_000,
  // Landing pages carry their images as data: URIs.
  landing_html_max: 500_000,
  difficulty: { min: 1, max: 5 },
  red_flags: { min: 2, max: 6 },
  red_flag_text_max: 300,
  red_flag_quote_max: 200,
} as const;
const L = PHISHING_TEMPLATE_LIMITS;

/** An email template with its landing page, as an administrator writes it. */
export interface PhishingTemplateContent extends EmailTemplate {
  name: string;
  difficulty: number;
  category: PhishingCategory;
  language: string;
  red_flags: RedFlag[];
  landing_html: string;
}

/** A quote found with any run of white space where it has one (text bodies wrap lines). */
export function quotePattern(quote: string): RegExp {
  const words = quote
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(words.join('\\s+'), 'g');
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The visible words of the HTML body's links (`<a …>words</a>`), roughly as a reader sees them. */
function linkTexts(html: string): string[] {
  return [...html.matchAll(/<a\b[^>]*>([\s\S]*?)<\/a\s*>/gi)].map((m) =>
    (m[1] ?? '')
      .replace(/<[^>]*>/g, ' ')
      .replace(/&(#\d+|#x[\da-f]+|\w+);/gi, (e, name: string) =>
        name.startsWith('#')
          ? String.fromCodePoint(
              Number.parseInt(name.slice(name[1] === 'x' ? 2 : 1), name[1] === 'x' ? 16 : 10),
            )
          : (ENTITIES[name.toLowerCase()] ?? e),
      ),
  );
}

function checkTemplateField(
  errors: FieldErrorCollector,
  field: string,
  source: string,
  allowed: readonly string[],
): TemplateCheck {
  const check = checkTemplateSource(source, allowed);
  for (const problem of check.problems) errors.add(field, problem);
  return check;
}

function checkOneLine(errors: FieldErrorCollector, field: string, value: unknown, max: number): string {
  const text = checkText(errors, field, value, { min: 1, max });
  if (/[\r\n\t]/.test(text)) errors.add(field, 'must be one line');
  return text;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function checkRedFlags(errors: FieldErrorCollector, value: unknown, email: EmailTemplate): RedFlag[] {
  if (!Array.isArray(value)) {
    errors.add('red_flags', 'must be a list');
    return [];
  }
  if (value.length < L.red_flags.min || value.length > L.red_flags.max) {
    errors.add('red_flags', `must have ${L.red_flags.min} to ${L.red_flags.max} entries`);
  }
  const where: Record<RedFlagPart, { texts: string[]; name: string }> = {
    sender: { texts: [email.sender_name, email.sender_address], name: 'the sender name or address' },
    subject: { texts: [email.subject], name: 'the subject' },
    body: { texts: [email.text], name: 'the text body' },
    link: { texts: linkTexts(email.html), name: 'the words of a link in the HTML body' },
  };
  return value.slice(0, L.red_flags.max).map((item, i) => {
    const flag = record(item);
    const field = `red_flags[${i}]`;
    const text = checkOneLine(errors, `${field}.text`, flag.text, L.red_flag_text_max);
    const quote = checkOneLine(errors, `${field}.quote`, flag.quote, L.red_flag_quote_max);
    const part = flag.part as RedFlagPart;
    if (!RED_FLAG_PARTS.includes(part)) {
      errors.add(`${field}.part`, `must be one of ${RED_FLAG_PARTS.join(', ')}`);
    } else if (quote.includes('{{')) {
      errors.add(`${field}.quote`, 'must be text of the message, without {{variables}}');
    } else if (quote && !where[part].texts.some((t) => quotePattern(quote).test(t))) {
      errors.add(`${field}.quote`, `is not in ${where[part].name}`);
    }
    return { text, part, quote };
  });
}

/**
 * Reads an administrator's template (or a built-in one): every problem is a field error named
 * by its path (`red_flags[1].quote`), with unknown variables, syntax and forbidden constructs
 * spelled out, and a body without `{{link}}` refused.
 */
export function readTemplateInput(
  errors: FieldErrorCollector,
  input: Record<string, unknown>,
): PhishingTemplateContent {
  const email: EmailTemplate = {
    subject: checkOneLine(errors, 'subject', input.subject, L.subject_max),
    sender_name: checkOneLine(errors, 'sender_name', input.sender_name, L.sender_name_max),
    sender_address: checkOneLine(errors, 'sender_address', input.sender_address, L.sender_address_max),
    html: checkText(errors, 'html', input.html, { min: 1, max: L.html_max }),
    text: checkText(errors, 'text', input.text, { min: 1, max: L.text_max }),
  };
  if (
    email.sender_address &&
    !/^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i.test(email.sender_address)
  ) {
    errors.add(
      'sender_address',
      'must be the part before the @ (letters, digits, dots, - and _), without the domain',
    );
  }
  checkTemplateField(errors, 'subject', email.subject, SUBJECT_VARIABLES);
  checkTemplateField(errors, 'sender_name', email.sender_name, SENDER_NAME_VARIABLES);
  for (const body of ['html', 'text'] as const) {
    const { parsed, variables } = checkTemplateField(errors, body, email[body], EMAIL_VARIABLES);
    if (email[body] && parsed && !variables.has('link')) {
      errors.add(body, 'must contain {{link}}, the personal link that records the click');
    }
  }
  const landing_html = checkText(errors, 'landing_html', input.landing_html, {
    min: 1,
    max: L.landing_html_max,
  });
  checkTemplateField(errors, 'landing_html', landing_html, LANDING_VARIABLES);
  const { difficulty, category, language } = input;
  if (
    typeof difficulty !== 'number' ||
    !Number.isInteger(difficulty) ||
    difficulty < L.difficulty.min ||
    difficulty > L.difficulty.max
  ) {
    errors.add('difficulty', `must be a whole number from ${L.difficulty.min} to ${L.difficulty.max}`);
  }
  if (!PHISHING_CATEGORIES.includes(category as PhishingCategory)) {
    errors.add('category', `must be one of ${PHISHING_CATEGORIES.join(', ')}`);
  }
  if (typeof language !== 'string' || !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(language)) {
    errors.add('language', 'must be a language tag such as en or en-GB');
  }
  return {
    name: checkName(errors, 'name', input.name),
    ...email,
    difficulty: difficulty as number,
    category: category as PhishingCategory,
    language: language as string,
    red_flags: checkRedFlags(errors, input.red_flags, email),
    landing_html,
  };
}

/** The field errors of a template; empty when it may be saved. */
export function checkTemplate(input: Record<string, unknown>): FieldErrors {
  const errors = new FieldErrorCollector();
  readTemplateInput(errors, input);
  return errors.fields;
}
