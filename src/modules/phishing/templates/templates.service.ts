import { diffFields, recordAudit } from '../../../core/audit/audit.js';
import type { Db } from '../../../core/db/database.js';
import { AppError, FieldErrorCollector } from '../../../core/errors.js';
import { checkText, NAME_MAX } from '../../../core/fields.js';
import { getAccount } from '../../access/index.js';
import { builtInPhishingTemplates } from './templates.library.service.js';
import {
  getTemplate,
  type PhishingTemplateView,
  parseTemplateKey,
  phishingTemplateNotFound,
  viewOfRow,
} from './templates.lookup.service.js';
import {
  campaignsUsingTemplate,
  deleteTemplateRow,
  findTemplateRow,
  insertTemplateRow,
  removeTemplateFromDrafts,
  updateTemplateRow,
} from './templates.repository.js';
import { type PhishingTemplateContent, readTemplateInput } from './templates.rules.model.js';

export { listTemplatesPage } from './templates.list.service.js';
// What other areas call, from one place: see templates.lookup.service.ts.
export {
  builtInTemplateKey,
  customTemplateKey,
  getTemplate,
  parseTemplateKey,
  templateKeyExists,
  templatesByKeys,
} from './templates.lookup.service.js';

/**
 * An account's own phishing templates (`custom:<id>`): checked, created, changed, cloned (from
 * a built-in one too) and deleted. Reading by key: templates.lookup.service.ts; the library's
 * list: templates.list.service.ts; previews: templates.preview.service.ts.
 */

export const SUMMARY_MAX = 300;
const builtInFixed = () => new AppError('phishing_template_built_in');

/** Reads an administrator's template into the fields stored, or a 400 naming every problem. */
export function checkedTemplate(input: Record<string, unknown>): {
  content: PhishingTemplateContent;
  summary: string;
} {
  const errors = new FieldErrorCollector();
  const content = readTemplateInput(errors, input);
  const summary = checkText(errors, 'summary', input.summary ?? '', { min: 0, max: SUMMARY_MAX });
  errors.throwIfAny();
  return { content, summary };
}

function storedFields(content: PhishingTemplateContent, summary: string) {
  return {
    name: content.name,
    summary,
    subject: content.subject,
    sender_name: content.sender_name,
    sender_address: content.sender_address,
    html: content.html,
    text: content.text,
    landing_html: content.landing_html,
    difficulty: content.difficulty,
    category: content.category,
    language: content.language,
    red_flags: JSON.stringify(content.red_flags),
  };
}

/** A template's change in the audit log: its short fields, and only that the (long) bodies changed. */
async function recordTemplateChange(
  trx: Db,
  accountId: number,
  action: string,
  before: { id: number; name: string } | null | undefined,
  after: { id: number; name: string } | null,
): Promise<void> {
  const row = (after ?? before) as { id: number; name: string };
  await recordAudit(trx, {
    accountId,
    action,
    object: { type: 'phishing_template', id: `custom:${row.id}`, label: row.name },
    changes: diffFields(before, after, {
      fields: [
        'name',
        'subject',
        'sender_name',
        'sender_address',
        'difficulty',
        'category',
        'language',
        'cloned_from',
        'html',
        'text',
        'landing_html',
      ],
      secrets: ['html', 'text', 'landing_html'],
    }),
  });
}

/** Adds a template of the account's own (`custom:<id>`). */
export async function createTemplate(
  db: Db,
  accountId: number,
  input: Record<string, unknown>,
): Promise<PhishingTemplateView> {
  const { content, summary } = checkedTemplate(input);
  await getAccount(db, accountId);
  const now = Date.now();
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await insertTemplateRow(trx, accountId, {
      ...storedFields(content, summary),
      cloned_from: null,
      created_at: now,
      updated_at: now,
    });
    await recordTemplateChange(trx, accountId, 'phishing_template.created', null, inserted);
    return inserted;
  });
  return viewOfRow(row);
}

/** The row id a key names for a change, or the error: a built-in one is fixed, anything else unknown. */
function customIdForChange(key: string): number {
  const parsed = parseTemplateKey(key);
  if (parsed?.source === 'builtin' && builtInPhishingTemplates().has(parsed.slug)) throw builtInFixed();
  if (parsed?.source !== 'custom') throw phishingTemplateNotFound();
  return parsed.id;
}

/**
 * Replaces an own template's content. Campaigns already launched keep the copy they took at
 * launch; drafts use the new content when they launch.
 */
export async function updateTemplate(
  db: Db,
  accountId: number,
  key: string,
  input: Record<string, unknown>,
): Promise<PhishingTemplateView> {
  const { content, summary } = checkedTemplate(input);
  const id = customIdForChange(key);
  const row = await db.transaction().execute(async (trx) => {
    const before = await findTemplateRow(trx, accountId, id);
    const updated = await updateTemplateRow(trx, accountId, id, {
      ...storedFields(content, summary),
      updated_at: Date.now(),
    });
    if (!updated || !before) throw phishingTemplateNotFound();
    await recordTemplateChange(trx, accountId, 'phishing_template.updated', before, updated);
    return updated;
  });
  return viewOfRow(row);
}

/** "<name> (copy)", cut so that it stays a valid name. */
export function copyName(name: string): string {
  const suffix = ' (copy)';
  const chars = [...name];
  return chars.length + suffix.length <= NAME_MAX
    ? `${name}${suffix}`
    : `${chars
        .slice(0, NAME_MAX - suffix.length)
        .join('')
        .trimEnd()}${suffix}`;
}

/** A new template of the account's own with the content of a built-in or own one, `cloned_from` kept. */
export async function cloneTemplate(
  db: Db,
  accountId: number,
  key: string,
  options: { name?: string | undefined } = {},
): Promise<PhishingTemplateView> {
  let name: string | undefined;
  if (options.name !== undefined) {
    const errors = new FieldErrorCollector();
    name = checkText(errors, 'name', options.name, { min: 1, max: NAME_MAX });
    if (/[\r\n\t]/.test(name)) errors.add('name', 'must be one line');
    errors.throwIfAny();
  }
  const source = await getTemplate(db, accountId, key);
  const content = { ...source.content, name: name ?? copyName(source.content.name) };
  const now = Date.now();
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await insertTemplateRow(trx, accountId, {
      ...storedFields(content, source.summary),
      cloned_from: source.key,
      created_at: now,
      updated_at: now,
    });
    await recordTemplateChange(trx, accountId, 'phishing_template.cloned', null, inserted);
    return inserted;
  });
  return viewOfRow(row);
}

/**
 * Deletes an own template. One that a campaign past its draft uses stays (its results name it);
 * drafts that list it lose it from their pool.
 */
export async function deleteTemplate(db: Db, accountId: number, key: string): Promise<void> {
  const id = customIdForChange(key);
  await db.transaction().execute(async (trx) => {
    const before = await findTemplateRow(trx, accountId, id);
    if (!before) throw phishingTemplateNotFound();
    const users = (await campaignsUsingTemplate(trx, accountId, key)).filter((c) => c.status !== 'draft');
    if (users.length > 0) {
      throw new AppError('phishing_template_in_use', {
        message: `This template is used by ${users.map((c) => `"${c.name}"`).join(', ')}; it cannot be deleted`,
        details: { campaign_ids: users.map((c) => c.id) },
      });
    }
    await removeTemplateFromDrafts(trx, accountId, key);
    await deleteTemplateRow(trx, accountId, id);
    await recordTemplateChange(trx, accountId, 'phishing_template.deleted', before, null);
  });
}
