import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconFileImport,
  IconKey,
  IconPlus,
  IconSchool,
  IconUserPlus,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatNumber } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';
import { accountPath, useAccount } from '../../layout/account-context';
import { ReportingFigures } from './ReportingFigures';

interface StatProps {
  label: string;
  /** The link's text: "View employees". */
  linkLabel: string;
  value: number | undefined;
  to: string;
  icon: ReactNode;
}

function Stat({ label, linkLabel, value, to, icon }: StatProps) {
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={2}>
          <Text size="sm" c="dimmed" fw={500}>
            {label}
          </Text>
          <Text fz={{ base: 24, sm: 32 }} fw={700} lh={1.2}>
            {value === undefined ? '–' : formatNumber(value)}
          </Text>
        </Stack>
        <ThemeIcon variant="light" size={40} radius="md" aria-hidden visibleFrom="sm">
          {icon}
        </ThemeIcon>
      </Group>
      <Anchor component={Link} to={to} size="sm" mt="sm">
        {linkLabel}
      </Anchor>
    </Card>
  );
}

const STATS = [
  {
    label: 'Employees',
    linkLabel: 'View employees',
    count: 'employees',
    section: 'employees',
    Icon: IconUsers,
  },
  { label: 'Groups', linkLabel: 'View groups', count: 'groups', section: 'groups', Icon: IconUsersGroup },
  {
    label: 'Campaigns',
    linkLabel: 'View campaigns',
    count: 'campaigns',
    section: 'campaigns',
    Icon: IconSchool,
  },
  {
    label: 'Active API keys',
    linkLabel: 'View API keys',
    count: 'active_keys',
    section: 'integration',
    Icon: IconKey,
  },
] as const;

const QUICK_LINKS = [
  { label: 'Manage employees', parts: ['employees'], Icon: IconUserPlus },
  { label: 'Import employees from CSV', parts: ['employees', 'import'], Icon: IconFileImport },
  { label: 'Manage groups', parts: ['groups'], Icon: IconPlus },
  { label: 'Manage API keys', parts: ['integration'], Icon: IconKey },
] as const;

/** /a/:accountId — counts of what the account holds, and the usual next steps. */
export function OverviewPage() {
  const account = useAccount();
  const overview = useQuery({
    queryKey: ['overview', account.id],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}/overview', { params: { path: { accountId: account.id } } })),
  });
  const data = overview.data;

  return (
    <>
      <PageHeader title={account.name} description="Overview of this customer account." />
      <Stack gap="xl">
        <ErrorAlert error={overview.error} title="Could not load the counts" />
        <SimpleGrid cols={{ base: 2, lg: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
          {STATS.map(({ label, linkLabel, count, section, Icon }) => (
            <Stat
              key={label}
              label={label}
              linkLabel={linkLabel}
              value={data?.[count]}
              to={accountPath(account.id, section)}
              icon={<Icon />}
            />
          ))}
        </SimpleGrid>
        {data && <ReportingFigures reporting={data.reporting} />}
        <section aria-labelledby="quick-links">
          <Title order={2} size="h4" id="quick-links" mb="sm">
            Quick links
          </Title>
          <Group gap="sm">
            {QUICK_LINKS.map(({ label, parts, Icon }) => (
              <Button
                key={label}
                component={Link}
                to={accountPath(account.id, ...parts)}
                variant="light"
                leftSection={<Icon size={16} />}
              >
                {label}
              </Button>
            ))}
          </Group>
        </section>
      </Stack>
    </>
  );
}
