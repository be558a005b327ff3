import { Center, Loader } from '@mantine/core';

/** A centred spinner while a page's first data arrives. */
export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-label={label}>
      <Loader />
    </Center>
  );
}
