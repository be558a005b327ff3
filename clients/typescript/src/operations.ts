import type { components, operationRoutes, operations } from './generated/customer-api.js';

/** Types of each operation of the Customer API, read from the generated document types. */

/** The operations a client calls (the document's `webhooks` are what Vigil calls). */
export type OperationId = keyof typeof operationRoutes;
type Op<K extends OperationId> = operations[K];

/** The path parameters of an operation (`{ group_id: number }`), or never. */
export type PathParams<K extends OperationId> = Op<K>['parameters'] extends { path: infer P }
  ? P extends Record<string, unknown>
    ? P
    : never
  : never;

/** The query parameters of an operation, or never. */
export type QueryParams<K extends OperationId> = Op<K>['parameters'] extends { query?: infer Q }
  ? NonNullable<Q>
  : never;

/** The JSON request body of an operation, or never. */
export type JsonBody<K extends OperationId> = [NonNullable<Op<K>['requestBody']>] extends [never]
  ? never
  : NonNullable<Op<K>['requestBody']> extends { content: { 'application/json': infer B } }
    ? B
    : never;

type SuccessStatus = 200 | 201 | 202 | 204;

/** What a successful answer of an operation holds (undefined for a 204). */
export type Success<K extends OperationId> = {
  [S in keyof Op<K>['responses'] & SuccessStatus]: Op<K>['responses'][S] extends {
    content: { 'application/json': infer D };
  }
    ? D
    : undefined;
}[keyof Op<K>['responses'] & SuccessStatus];

/** Every error code the API documents (`email_taken`, `group_not_found`, …). */
export type ApiErrorCode = components['schemas']['Error']['code'];
