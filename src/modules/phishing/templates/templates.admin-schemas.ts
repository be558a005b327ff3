import { Type } from '@sinclair/typebox';
import { Body, NullableTimestamp, PathId } from '../../../core/http/admin-schemas.js';
import { ListOf, listQueryFields } from '../../../core/http/schemas.js';
import { PHISHING_CATEGORIES, RED_FLAG_PARTS } from './templates.rules.model.js';

/** Request and response schemas of the admin API's phishing template and settings routes. */

const Category = Type.Unsafe<(typeof PHISHING_CATEGORIES)[number]>({
  type: 'string',
  enum: [...PHISHING_CATEGORIES],
});
const Part = Type.Unsafe<(typeof RED_FLAG_PARTS)[number]>({ type: 'string', enum: [...RED_FLAG_PARTS] });
const Source = Type.Unsafe<'builtin' | 'custom'>({
  type: 'string',
  enum: ['builtin', 'custom'],
  description:
    '`builtin`: the library shipped with Vigil (read-only; clone it). `custom`: the account’s own.',
});

export const RedFlagSchema = Type.Object(
  {
    text: Type.String({ description: 'What should have raised suspicion.' }),
    part: Part,
    quote: Type.String({ description: 'Exact text of that part, highlighted on the teachable page.' }),
  },
  { title: 'PhishingRedFlag' },
);

const summaryFields = {
  key: Type.String({
    description: '`builtin:<slug>` or `custom:<id>`.',
    examples: ['builtin:invoice-final-notice'],
  }),
  source: Source,
  name: Type.String(),
  summary: Type.String(),
  difficulty: Type.Integer({ minimum: 1, maximum: 5, description: '1 obvious … 5 polished and personal.' }),
  category: Category,
  language: Type.String(),
  subject: Type.String(),
  sender_name: Type.String(),
  cloned_from: Type.Union([Type.String(), Type.Null()], { description: 'The key it was cloned from.' }),
  created_at: NullableTimestamp,
  updated_at: NullableTimestamp,
};

export const PhishingTemplateSummary = Type.Object(summaryFields, { title: 'PhishingTemplateSummary' });

export const PhishingTemplate = Type.Object(
  {
    ...summaryFields,
    sender_address: Type.String({ description: 'The part before the @; the domain is the campaign’s.' }),
    html: Type.String({ description: 'The HTML body, as written (variables not rendered).' }),
    text: Type.String({ description: 'The text body, as written.' }),
    landing_html: Type.String({ description: 'The landing page, as written.' }),
    red_flags: Type.Array(RedFlagSchema),
  },
  { title: 'PhishingTemplate' },
);

export const PhishingTemplateList = ListOf(PhishingTemplateSummary);

export const TemplateListQuery = Type.Object({
  ...listQueryFields,
  difficulty: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
  category: Type.Optional(Category),
  source: Type.Optional(Source),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Words of the name, summary or subject.' })),
});

export const TemplateKeyParams = Type.Object({
  accountId: PathId,
  templateKey: Type.String({ maxLength: 100, description: '`builtin:<slug>` or `custom:<id>`.' }),
});

// The shape; the values' rules are the service's (templates.rules.model.ts), so that every
// problem is named by its field (`red_flags[1].quote`), which the editor shows on that input.
const templateFields = {
  name: Type.String(),
  summary: Type.Optional(Type.String()),
  subject: Type.String(),
  sender_name: Type.String(),
  sender_address: Type.String(),
  html: Type.String(),
  text: Type.String(),
  landing_html: Type.String(),
  difficulty: Type.Integer(),
  category: Type.String(),
  language: Type.String(),
  red_flags: Type.Array(
    Type.Object(
      {
        text: Type.Optional(Type.String()),
        part: Type.Optional(Type.String()),
        quote: Type.Optional(Type.String()),
      },
      { additionalProperties: false, description: 'All three fields are required (checked by the service).' },
    ),
  ),
};

export const TemplateBody = Body(templateFields);

/** A draft: any field may be missing or empty (its error comes back with the preview). */
export const PreviewBody = Type.Partial(Body(templateFields), { additionalProperties: false });

export const CloneBody = Body({
  name: Type.Optional(Type.String({ description: 'Default: the source’s name and " (copy)".' })),
});

const Nullable = Type.Union([Type.String(), Type.Null()]);

export const TemplatePreview = Type.Object(
  {
    errors: Type.Record(Type.String(), Type.Array(Type.String()), {
      description: 'Field → messages, as `details` of a 400 would say on save; empty when it may be saved.',
    }),
    email: Type.Object(
      {
        subject: Nullable,
        sender_name: Nullable,
        sender_address: Nullable,
        html: Type.Union([Type.String(), Type.Null()], {
          description: 'Show only in `<iframe sandbox="" srcdoc>`: it is the account’s own markup.',
        }),
        text: Nullable,
      },
      { description: 'Each part rendered for the sample person, or null when its field has an error.' },
    ),
    landing_html: Type.Union([Type.String(), Type.Null()], {
      description: 'The landing page as served (sanitised, no script); for a sandboxed frame.',
    }),
    teachable: Type.Union(
      [
        Type.Object({
          sender_html: Type.String(),
          subject_html: Type.String(),
          body_html: Type.String({ description: 'Escaped text, red flags in `<mark data-flag="n">`.' }),
          flags: Type.Array(
            Type.Composite([RedFlagSchema, Type.Object({ number: Type.Integer(), marked: Type.Boolean() })]),
          ),
        }),
        Type.Null(),
      ],
      { description: 'The teachable page’s copy of the email; null while the template has errors.' },
    ),
  },
  { title: 'PhishingTemplatePreview' },
);

export const PhishingSettings = Type.Object(
  {
    scanner_networks: Type.Array(Type.String(), {
      description:
        'One network a line (CIDR or a single address), `#` comments kept: clicks from these count as automated.',
      examples: [['# Mail gateway', '203.0.113.0/24', '2001:db8::/32']],
    }),
    sender_name: Type.Union([Type.String(), Type.Null()], {
      description: 'The sender name campaigns use unless they choose one; null: each template’s own.',
    }),
    sender_address: Type.Union([Type.String(), Type.Null()], {
      description: 'The part before the @ campaigns use unless they choose one; null: each template’s own.',
    }),
    sender_domain: Type.Union([Type.String(), Type.Null()], {
      description: 'The sender domain campaigns use unless they choose one; null: `default_sender_domain`.',
    }),
    default_sender_domain: Type.String({
      description:
        'The domain used when neither the campaign nor the account chooses one: the host of PHISH_URL.',
    }),
    simulation_header: Type.String({
      description:
        'The header every simulation carries with its token, and every report path reads: `X-Vigil-Simulation` unless the account chose its own (so employees cannot filter on one well-known name).',
      examples: ['X-Vigil-Simulation'],
    }),
    simulation_header_is_default: Type.Boolean({
      description: 'Whether `simulation_header` is the default.',
    }),
    local_sender_allowed: Type.Boolean({
      description:
        'Whether this server lets a sender domain be an IP address or localhost (PHISHING_ALLOW_LOCAL_SENDER).',
    }),
    updated_at: NullableTimestamp,
  },
  { title: 'PhishingSettings' },
);

const SenderText = (maxLength: number) => Type.Union([Type.String({ maxLength }), Type.Null()]);

export const PhishingSettingsBody = Body({
  scanner_networks: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 2000 })),
  sender_name: Type.Optional(SenderText(200)),
  sender_address: Type.Optional(SenderText(200)),
  sender_domain: Type.Optional(SenderText(300)),
  simulation_header: Type.Optional(SenderText(200)),
});
