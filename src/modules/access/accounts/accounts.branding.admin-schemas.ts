import { Type } from '@sinclair/typebox';
import { Body, NullableTimestamp } from '../../../core/http/admin-schemas.js';
import { OPENAPI_OVERRIDE } from '../../../core/http/openapi-components.js';

export const AccountSettings = Type.Object(
  {
    name: Type.String({ description: 'The account’s name (operators set it).' }),
    display_name: Type.Union([Type.String(), Type.Null()], {
      description: 'The name employees see in mail and on their pages; null: the account’s name.',
    }),
    shown_name: Type.String({ description: 'What employees see now: the display name, else the name.' }),
    logo: Type.Union(
      [
        Type.Object({
          content_type: Type.String({ description: '`image/png`, `image/jpeg` or `image/webp`.' }),
          byte_size: Type.Integer(),
          sha256: Type.String(),
          updated_at: NullableTimestamp,
        }),
        Type.Null(),
      ],
      { description: 'The logo employees see, or null.' },
    ),
    logo_max_bytes: Type.Integer({ description: 'The largest logo accepted, in bytes.' }),
  },
  { title: 'AccountSettings' },
);

export const AccountSettingsBody = Body({
  display_name: Type.Union([Type.String(), Type.Null()], {
    description: 'The name employees see (at most 150 characters); empty or null: the account’s name.',
  }),
});

export const LogoUpload = Type.Unsafe<Buffer>({
  description: 'The logo: a PNG, JPEG or WebP image of at most 256 KiB (SVG is refused).',
  [OPENAPI_OVERRIDE]: { type: 'string', format: 'binary' },
});

export const LogoFile = Type.Unsafe<Buffer>({
  description: 'The logo’s bytes.',
  content: {
    'image/png': { schema: { type: 'string', format: 'binary' } },
    'image/jpeg': { schema: { type: 'string', format: 'binary' } },
    'image/webp': { schema: { type: 'string', format: 'binary' } },
  },
});
