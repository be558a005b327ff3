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
import { getOverview } from '../../api/accounts';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatNumber } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';
import { accountPath, useAccount } from '../../layout/account-context';

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

/** /a/:accountId — counts of what the account holds, and the usual next steps. */
export function OverviewPage() {
  const account = useAccount();
  const overview = useQuery({ queryKey: ['overview', account.id], queryFn: () => getOverview(account.id) });
  const data = overview.data;
  const path = (...parts: string[]) => accountPath(account.id, ...parts);

  return (
    <>
      <PageHeader title={account.name} description="Overview of this customer account." />
      <Stack gap="xl">
        <ErrorAlert error={overview.error} title="Could not load the counts" />
        <SimpleGrid cols={{ base: 2, lg: 4 }} spacing={{ base: 'sm', sm: 'md' }}>
          <Stat
            label="Employees"
            linkLabel="View employees"
            value={data?.employees}
            to={path('employees')}
            icon={<IconUsers />}
          />
          <Stat
            label="Groups"
            linkLabel="View groups"
            value={data?.groups}
            to={path('groups')}
            icon={<IconUsersGroup />}
          />
          <Stat
            label="Campaigns"
            linkLabel="View campaigns"
            value={data?.campaigns}
            to={path('campaigns')}
            icon={<IconSchool />}
          />
          <Stat
            label="Active API keys"
            linkLabel="View API keys"
            value={data?.active_keys}
            to={path('integration')}
            icon={<IconKey />}
          />
        </SimpleGrid>
        <section aria-labelledby="quick-links">
          <Title order={2} size="h4" id="quick-links" mb="sm">
            Quick links
          </Title>
          <Group gap="sm">
            <Button
              component={Link}
              to={path('employees')}
              variant="light"
              leftSection={<IconUserPlus size={16} />}
            >
              Manage employees
            </Button>
            <Button
              component={Link}
              to={path('employees', 'import')}
              variant="light"
              leftSection={<IconFileImport size={16} />}
            >
              Import employees from CSV
            </Button>
            <Button component={Link} to={path('groups')} variant="light" leftSection={<IconPlus size={16} />}>
              Manage groups
            </Button>
            <Button
              component={Link}
              to={path('integration')}
              variant="light"
              leftSection={<IconKey size={16} />}
            >
              Manage API keys
            </Button>
          </Group>
        </section>
      </Stack>
    </>
  );
}
