import { Type } from '@sinclair/typebox';
import { Body, NullableTimestamp, PathId, Timestamp } from '../../../core/http/admin-schemas.js';

/** Request and response schemas of the admin API's delivery routes (the allow-listing sheet, test sends). */

export const DeliverySheet = Type.Object(
  {
    sending_domains: Type.Array(
      Type.Object({
        domain: Type.String({ examples: ['mail.acme-notices.example'] }),
        sources: Type.Array(Type.String(), {
          description:
            'Where the domain comes from: the account’s default, or a campaign that may still send.',
        }),
      }),
      {
        description:
          'The domains simulations are sent from (the envelope sender and From): the account’s default sender domain (else the host of PHISH_URL) and that of every draft, scheduled or running campaign.',
      },
    ),
    sending_ips: Type.Array(Type.String(), {
      description:
        'The SMTP relay’s outbound addresses or networks (PHISHING_SENDING_IPS); empty: the operator has not set them (ask the SMTP provider).',
      examples: [['203.0.113.25', '198.51.100.0/24']],
    }),
    smtp_host: Type.Union([Type.String(), Type.Null()], {
      description:
        'The host of SMTP_URL, without credentials, to name when asking the provider; null: no SMTP server (mail goes to the Outbox).',
    }),
    simulation_urls: Type.Array(Type.String(), {
      description:
        'The simulation links to allow, as Microsoft 365 writes them: the host of PHISH_URL and `/*`.',
      examples: [['phish.example.net/*']],
    }),
    simulation_header: Type.String({
      description:
        'The header every simulation carries with its token (the account’s, else `X-Vigil-Simulation`).',
    }),
  },
  { title: 'PhishingDeliverySheet' },
);

const Hit = Type.Object(
  {
    at: Timestamp,
    kind: Type.Unsafe<'image' | 'link'>({
      type: 'string',
      enum: ['image', 'link'],
      description: '`image`: the open-tracking image loaded; `link`: the link followed (or probed).',
    }),
    method: Type.String({ description: 'The HTTP method (`HEAD` is a link checker’s).' }),
    classification: Type.Unsafe<'human' | 'automated'>({ type: 'string', enum: ['human', 'automated'] }),
    reason: Type.String({ description: 'The classifier’s reason code (docs/internals/scanners.md).' }),
    reason_text: Type.String({ description: 'What the reason means.' }),
    detail: Type.Union([Type.String(), Type.Null()], {
      description: 'What matched (a product, a network, a header), when the reason has one.',
    }),
    client_address: Type.Union([Type.String(), Type.Null()]),
    user_agent: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'PhishingTestHit' },
);

export const TestSend = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    employee_id: Type.Union([Type.Integer(), Type.Null()]),
    template_key: Type.String(),
    template_name: Type.String(),
    status: Type.Unsafe<'queued' | 'sent' | 'failed'>({
      type: 'string',
      enum: ['queued', 'sent', 'failed'],
      description:
        '`sent`: the SMTP server (or the Outbox) accepted it; `failed`: it could not be delivered.',
    }),
    created_at: Timestamp,
    delivered_at: NullableTimestamp,
    watch_until: Timestamp,
    verdict: Type.Unsafe<'queued' | 'failed' | 'waiting' | 'no_hit' | 'scanner_only' | 'human'>({
      type: 'string',
      enum: ['queued', 'failed', 'waiting', 'no_hit', 'scanner_only', 'human'],
      description:
        'What the hits say so far: `waiting` for the first hit; `no_hit` after five minutes without one (the message probably did not arrive); `scanner_only` only automated hits; `human` a person opened it.',
    }),
    human_hits: Type.Integer(),
    automated_hits: Type.Integer(),
    hits: Type.Array(Hit, { description: 'Every recorded hit, oldest first (at most 100).' }),
  },
  { title: 'PhishingTestSend' },
);

export const TestSendList = Type.Object(
  { data: Type.Array(TestSend, { description: 'The latest ten, newest first.' }) },
  { title: 'PhishingTestSendList' },
);

export const TestSendBody = Body({
  email: Type.String({
    maxLength: 320,
    description: 'The address of one of the account’s employees; any other is refused.',
  }),
  template_key: Type.String({ maxLength: 200, description: '`builtin:<slug>` or `custom:<id>`.' }),
});

export const TestSendParams = Type.Object({ accountId: PathId, testSendId: PathId });
