import { AppError, type ErrorCode } from '../../../core/errors.js';

/** SCIM's error schema (RFC 7644 §3.12): the body every answer under `/scim/v2/` fails with. */
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The catalogue's SCIM codes and the `scimType` each is answered with. */
const SCIM_TYPES: Partial<Record<ErrorCode, string>> = {
  scim_invalid_filter: 'invalidFilter',
  scim_invalid_syntax: 'invalidSyntax',
  scim_invalid_path: 'invalidPath',
  scim_invalid_value: 'invalidValue',
  scim_no_target: 'noTarget',
  scim_mutability: 'mutability',
  // The services' own errors, as SCIM names them.
  email_taken: 'uniqueness',
  validation_failed: 'invalidValue',
  invalid_employee_ids: 'invalidValue',
  malformed_json: 'invalidSyntax',
};

export interface ScimErrorBody {
  schemas: [typeof ERROR_SCHEMA];
  status: string;
  scimType?: string;
  detail: string;
}

/** The detail of an error: its message, with the fields a validation failure names. */
function detailOf(error: AppError): string {
  if (error.code === 'employee_not_found') return 'User not found';
  if (error.code === 'email_taken') return 'userName is already taken by another user of this account';
  if (error.code === 'invalid_employee_ids') {
    const ids = (error.details?.invalid_ids as number[] | undefined) ?? [];
    return `No such user: ${ids.join(', ')}`;
  }
  if (error.code === 'validation_failed' && error.details) {
    const fields = Object.entries(error.details as Record<string, string[]>);
    return fields.map(([field, messages]) => `${field} ${messages.join('; ')}`).join('. ');
  }
  return error.message;
}

export function scimErrorBody(error: AppError): ScimErrorBody {
  const scimType = SCIM_TYPES[error.code];
  return {
    schemas: [ERROR_SCHEMA],
    status: String(error.status),
    ...(scimType && { scimType }),
    detail: detailOf(error),
  };
}

/** A SCIM error of the catalogue with a message of its own. */
export const scimError = (
  code:
    | 'scim_invalid_filter'
    | 'scim_invalid_syntax'
    | 'scim_invalid_path'
    | 'scim_invalid_value'
    | 'scim_no_target'
    | 'scim_mutability',
  message?: string,
) => new AppError(code, message === undefined ? {} : { message });
