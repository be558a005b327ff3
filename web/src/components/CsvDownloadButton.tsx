import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A link that downloads a CSV export of the admin API (`href`), styled as a button. */
export function CsvDownloadButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Button
      component="a"
      href={href}
      download
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
    >
      {children}
    </Button>
  );
}
