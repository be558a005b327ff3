import { Type } from '@sinclair/typebox';

/** Response shapes shared by the admin API's route files (see docs/admin-api.md). */

export const Timestamp = Type.String({ format: 'date-time' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const User = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  role: Type.Union([Type.Literal('operator'), Type.Literal('account_admin')]),
  account_id: Type.Union([Type.Integer(), Type.Null()]),
});

export const SignedIn = Type.Object({ user: User, csrf_token: Type.String() });

export const Account = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const NameBody = Type.Object({ name: Type.String() });
export const IdParams = Type.Object({ id: Type.String() });
