import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useRouteError } from 'react-router';
import { EmptyState } from './EmptyState';
import { ErrorAlert } from './ErrorAlert';
import { PageHeader } from './PageHeader';

/** A page that crashed while rendering: say so instead of a blank screen. */
export function RouteError() {
  const error = useRouteError();
  return (
    <Stack component="main" p="xl" maw={640} mx="auto">
      <PageHeader title="Something went wrong" />
      <ErrorAlert error={error} title="This page could not be shown" />
      <Text>
        <Anchor href="/admin/" underline="always">
          Go to the start page
        </Anchor>{' '}
        or reload the page.
      </Text>
    </Stack>
  );
}

/** An address inside the app that matches no page. */
export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState title="There is no page at this address">
        <Anchor component={Link} to="/">
          Go to the start page
        </Anchor>
      </EmptyState>
    </>
  );
}
