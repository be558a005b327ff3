import type { Db } from '../../../core/db/database.js';
import { FieldErrorCollector, type FieldErrors } from '../../../core/errors.js';
import { checkText } from '../../../core/fields.js';
import { linkTo } from '../../../core/http/links.js';
import { getAccount } from '../../access/index.js';
import { simulationLink, submitPath } from '../simulation/simulation.links.model.js';
import {
  renderLandingPage,
  renderTeachableEmail,
  type TeachableEmail,
} from './templates.landing.presenter.js';
import {
  EMAIL_VARIABLES,
  type EmailVars,
  PhishingTemplateError,
  renderChecked,
  SENDER_NAME_VARIABLES,
  SUBJECT_VARIABLES,
} from './templates.render.model.js';
import { type PhishingTemplateContent, readTemplateInput } from './templates.rules.model.js';
import { SUMMARY_MAX } from './templates.service.js';

/**
 * The editor's live preview: a template as written (saved or not) rendered for a sample person,
 * with its field errors. Each part renders on its own, so a mistake in the subject still shows
 * the body. Nothing is stored. The HTML is for a sandboxed frame without scripts (the landing
 * page is sanitised as served; the email's HTML is the account's own markup).
 */

/** The sample person every preview is written to. */
export const SAMPLE_PERSON = {
  first_name: 'Alex',
  last_name: 'Morgan',
  email: 'alex.morgan@example.com',
} as const;
const PREVIEW_TOKEN = 'preview';

export interface TemplatePreview {
  errors: FieldErrors;
  /** Each part null when it could not be rendered (its field has an error that says why). */
  email: {
    subject: string | null;
    sender_name: string | null;
    sender_address: string | null;
    html: string | null;
    text: string | null;
  };
  /** The landing page as a person would get it, sanitised; null when it could not be rendered. */
  landing_html: string | null;
  /** The teachable page's copy with the red flags marked; null while the template has errors. */
  teachable: TeachableEmail | null;
}

function attempt<T>(render: () => T): T | null {
  try {
    return render();
  } catch (err) {
    if (err instanceof PhishingTemplateError) return null;
    throw err;
  }
}

const oneLine = (text: string) => text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();

/** Renders what can be rendered of `input` for the sample person, links on `phishBase`. */
export function renderPreview(
  input: Record<string, unknown>,
  options: { company: string; phishBase: string },
): TemplatePreview {
  const errors = new FieldErrorCollector();
  const content: PhishingTemplateContent = readTemplateInput(errors, input);
  checkText(errors, 'summary', input.summary ?? '', { min: 0, max: SUMMARY_MAX });
  const host = URL.parse(options.phishBase)?.hostname ?? 'example.com';
  const vars: EmailVars = {
    ...SAMPLE_PERSON,
    company: options.company,
    link: simulationLink(options.phishBase, PREVIEW_TOKEN),
    sender_domain: host,
  };
  const plain = { escape: false };
  const senderName = attempt(() =>
    oneLine(renderChecked(content.sender_name, SENDER_NAME_VARIABLES, vars, plain)),
  );
  const all = { ...vars, sender_name: senderName ?? '' };
  const local = oneLine(content.sender_address);
  const failed = (field: string) => errors.fields[field] !== undefined;
  const email = {
    subject: attempt(() => oneLine(renderChecked(content.subject, SUBJECT_VARIABLES, all, plain))),
    sender_name: senderName,
    sender_address: failed('sender_address') || !local ? null : `${local}@${host}`,
    html: attempt(() => renderChecked(content.html, EMAIL_VARIABLES, all, { escape: true })),
    text: attempt(() => renderChecked(content.text, EMAIL_VARIABLES, all, plain)),
  };
  const landing_html = attempt(() =>
    renderLandingPage(content.landing_html, vars, {
      submitUrl: linkTo(options.phishBase, submitPath(PREVIEW_TOKEN)),
    }),
  );
  const teachable =
    Object.keys(errors.fields).length === 0 ? attempt(() => renderTeachableEmail(content, vars)) : null;
  return { errors: errors.fields, email, landing_html, teachable };
}

/** A preview for the account (its name is the sample `{{company}}`). */
export async function previewTemplate(
  db: Db,
  accountId: number,
  input: Record<string, unknown>,
  options: { phishBase: string },
): Promise<TemplatePreview> {
  const account = await getAccount(db, accountId);
  return renderPreview(input, { company: account.name, phishBase: options.phishBase });
}
