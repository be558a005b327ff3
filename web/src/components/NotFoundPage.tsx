import type { ReactNode } from 'react';
import { ErrorAlert } from './ErrorAlert';
import { PageHeader } from './PageHeader';

/**
 * The page of an object that is not there (deleted, another account's, a mistyped address):
 * "Group not found", and why, from the failed request or else "This group does not exist."
 */
export function NotFoundPage({
  thing,
  back,
  error,
}: {
  thing: string;
  back: ReactNode;
  error: Error | null;
}) {
  return (
    <>
      <PageHeader title={`${thing[0]?.toUpperCase()}${thing.slice(1)} not found`} above={back} />
      <ErrorAlert error={error ?? new Error(`This ${thing} does not exist.`)} />
    </>
  );
}
