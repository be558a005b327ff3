import { Type } from '@sinclair/typebox';

/** The manifests' query: the report key built into the add-in (a credential: never logged). */
export const ReportKeyQuery = Type.Object({
  key: Type.String({ description: 'A report key: an API key holding `reports:write` and nothing else.' }),
});

/** The task pane's query: its script reads the key from the address; the server reads nothing. */
export const TaskpaneQuery = Type.Object({ key: Type.Optional(Type.String()) });
