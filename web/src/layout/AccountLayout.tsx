import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Outlet, useParams } from 'react-router';
import { ApiError, api, call } from '../api/client';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { PageHeader } from '../components/PageHeader';
import { AppLayout } from './AppLayout';
import { AccountContext } from './account-context';

/** /a/:accountId/… — loads the account (404 for another customer's) and frames its pages. */
export function AccountLayout() {
  const { accountId: raw } = useParams();
  const accountId = /^\d+$/.test(raw ?? '') ? Number(raw) : null;
  const account = useQuery({
    queryKey: ['account', accountId],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}', { params: { path: { accountId: accountId ?? 0 } } })),
    enabled: accountId !== null,
  });

  let content: ReactNode;
  if (
    accountId === null ||
    (account.error instanceof ApiError && account.error.code === 'account_not_found')
  ) {
    content = (
      <>
        <PageHeader title="Account not found" />
        <EmptyState title="This account does not exist or is not yours">
          Check the address, or choose an account from the navigation.
        </EmptyState>
      </>
    );
  } else if (account.error) {
    content = <ErrorAlert error={account.error} title="Could not load the account" />;
  } else if (!account.data) {
    content = <Loading />;
  } else {
    content = (
      <AccountContext value={account.data}>
        <Outlet />
      </AccountContext>
    );
  }

  return <AppLayout accountId={account.error ? null : accountId}>{content}</AppLayout>;
}
