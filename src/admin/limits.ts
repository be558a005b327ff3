import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from '@sinclair/typebox';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../core/auth/password.js';
import { DESCRIPTION_MAX, EMAIL_MAX, NAME_MAX } from '../core/fields.js';
import { responses } from '../core/http/admin-schemas.js';
import { LIST_MAX_PAGE_SIZE } from '../core/pagination.js';
import { MAX_RATE_LIMIT } from '../modules/access/keys/keys.service.js';
import { MAX_IMPORT_ROWS } from '../modules/directory/employees/employees.import.service.js';
import { MAX_EMAILS } from '../modules/directory/groups/groups.membership.commands.js';
import {
  PHISHING_CATEGORIES,
  PHISHING_TEMPLATE_LIMITS,
} from '../modules/phishing/templates/templates.rules.model.js';
import { SUMMARY_MAX as PHISHING_SUMMARY_MAX } from '../modules/phishing/templates/templates.service.js';
import {
  CAMPAIGN_INPUT_FIELDS,
  type CampaignInputField,
  editableInputFields,
  MAX_COURSES,
  MAX_REMINDER_DAY,
  MAX_REMINDERS,
} from '../modules/training/campaigns/campaigns.model.js';
import { COURSE_LIMITS } from '../modules/training/courses/courses.model.js';

/**
 * The bounds and rules the web interface's forms need, from the constants the services check
 * (so a form never repeats a number the server might change).
 */
export function adminLimits() {
  return {
    name_max: NAME_MAX,
    description_max: DESCRIPTION_MAX,
    email_max: EMAIL_MAX,
    password: { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH },
    page_size_max: LIST_MAX_PAGE_SIZE,
    import_rows: MAX_IMPORT_ROWS,
    by_email_addresses: MAX_EMAILS,
    key_rate_limit: { min: 1, max: MAX_RATE_LIMIT },
    campaign: {
      courses_max: MAX_COURSES,
      reminders_max: MAX_REMINDERS,
      reminder_day_max: MAX_REMINDER_DAY,
      editable_fields: editableInputFields(),
    },
    course: COURSE_LIMITS,
    phishing_template: {
      ...PHISHING_TEMPLATE_LIMITS,
      summary_max: PHISHING_SUMMARY_MAX,
      categories: [...PHISHING_CATEGORIES],
    },
  };
}

const Count = Type.Integer({ minimum: 0 });
const Range = Type.Object({ min: Count, max: Count });
const Fields = Type.Array(Type.Unsafe<CampaignInputField>({ type: 'string', enum: CAMPAIGN_INPUT_FIELDS }));
const byStatus = (schema: TSchema) =>
  Type.Object({ draft: schema, scheduled: schema, active: schema, completed: schema, archived: schema });

export const Limits = Type.Object(
  {
    name_max: Type.Integer({ description: 'Names and titles, in characters after trimming.' }),
    description_max: Count,
    email_max: Count,
    password: Range,
    page_size_max: Type.Integer({ description: 'Lists clamp a larger `page_size` to this.' }),
    import_rows: Type.Integer({ description: 'Rows one employee import request takes.' }),
    by_email_addresses: Type.Integer({ description: 'Addresses one add-by-email request takes.' }),
    key_rate_limit: Range,
    campaign: Type.Object({
      courses_max: Count,
      reminders_max: Count,
      reminder_day_max: Count,
      editable_fields: byStatus(Fields),
    }),
    course: Type.Object({
      summary_max: Count,
      minutes: Range,
      pass_mark: Range,
      lessons_max: Count,
      lesson_markdown_max: Count,
      questions_max: Count,
      question_max: Count,
      choices: Range,
      choice_max: Count,
      explanation_max: Count,
      max_attempts: Range,
    }),
    phishing_template: Type.Object({
      name_max: Count,
      summary_max: Count,
      subject_max: Count,
      sender_name_max: Count,
      sender_address_max: Count,
      html_max: Count,
      text_max: Count,
      landing_html_max: Count,
      difficulty: Range,
      red_flags: Range,
      red_flag_text_max: Count,
      red_flag_quote_max: Count,
      categories: Type.Array(Type.String(), { description: 'Every category, in the order to offer them.' }),
    }),
  },
  { title: 'Limits' },
);

/** GET /admin/api/limits: public (the sign-in and invitation pages need the password's bounds). */
export const limitsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const limits = adminLimits();
  app.get(
    '/limits',
    {
      schema: {
        tags: ['Session'],
        summary: 'The bounds and per-status rules the forms apply (the server checks them all the same)',
        response: responses({ 200: Limits }),
      },
      config: { adminPermission: 'public', adminPublic: true },
    },
    async () => limits,
  );
};
