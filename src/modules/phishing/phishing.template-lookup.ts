import type { Db } from '../../db/database.js';
import { parseId } from '../../ids.js';
import { builtInPhishingTemplates } from './phishing.library.js';
import type { PhishingCategory, PhishingTemplateContent, RedFlag } from './phishing.template-rules.js';

/**
 * A minimal resolver of template keys (`builtin:<slug>`, `custom:<id>` of the account) for the
 * campaigns, until the template service's `templatesByKeys` (phishing.templates.service.ts)
 * replaces it at merge.
 */

export interface ResolvedTemplate {
  key: string;
  name: string;
  content: PhishingTemplateContent;
}

/** The account's templates of these keys that exist; unknown keys are left out. */
export async function templatesByKeys(
  db: Db,
  accountId: number,
  keys: readonly string[],
): Promise<Map<string, ResolvedTemplate>> {
  const found = new Map<string, ResolvedTemplate>();
  const library = builtInPhishingTemplates();
  const customIds: number[] = [];
  for (const key of keys) {
    if (key.startsWith('builtin:')) {
      const t = library.get(key.slice('builtin:'.length));
      if (t) {
        const { slug: _slug, summary: _summary, ...content } = t;
        found.set(key, { key, name: t.name, content });
      }
    } else if (key.startsWith('custom:')) {
      const id = parseId(key.slice('custom:'.length));
      if (id !== null && `custom:${id}` === key) customIds.push(id);
    }
  }
  if (customIds.length > 0) {
    const rows = await db
      .selectFrom('phishing_templates')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', customIds)
      .execute();
    for (const row of rows) {
      const key = `custom:${row.id}`;
      found.set(key, {
        key,
        name: row.name,
        content: {
          name: row.name,
          subject: row.subject,
          sender_name: row.sender_name,
          sender_address: row.sender_address,
          html: row.html,
          text: row.text,
          landing_html: row.landing_html,
          difficulty: row.difficulty,
          category: row.category as PhishingCategory,
          language: row.language,
          red_flags: JSON.parse(row.red_flags) as RedFlag[],
        },
      });
    }
  }
  return found;
}
