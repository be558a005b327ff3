import { Anchor, Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { getCampaign } from '../../api/campaigns';
import { BackLink } from '../../components/BackLink';
import { DateText } from '../../components/DateText';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { accountPath, useAccount } from '../../layout/account-context';
import { StatusBadge } from './StatusBadge';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text component="dd" m={0} fw={500}>
        {children}
      </Text>
    </div>
  );
}

/** /a/:accountId/campaigns/:campaignId — status, target groups and dates of one campaign. */
export function CampaignPage() {
  const account = useAccount();
  const campaignId = Number(useParams().campaignId);
  const campaign = useQuery({
    queryKey: ['campaign', account.id, campaignId],
    queryFn: () => getCampaign(account.id, campaignId),
    enabled: Number.isInteger(campaignId),
  });
  const back = <BackLink to={accountPath(account.id, 'campaigns')}>Training campaigns</BackLink>;

  if (campaign.isPending && Number.isInteger(campaignId)) return <Loading />;
  if (!campaign.data) {
    return (
      <>
        <PageHeader title="Campaign not found" above={back} />
        <ErrorAlert error={campaign.error ?? new Error('This campaign does not exist.')} />
      </>
    );
  }
  const c = campaign.data;

  return (
    <>
      <PageHeader title={c.name} above={back} description="Training campaign" />
      <Stack gap="lg">
        <Card withBorder padding="lg">
          <SimpleGrid cols={{ base: 1, xs: 3 }} component="dl" m={0}>
            <Fact label="Status">
              <StatusBadge status={c.status} />
            </Fact>
            <Fact label="Created">
              <DateText value={c.created_at} absolute />
            </Fact>
            <Fact label="Last updated">
              <DateText value={c.updated_at} absolute />
            </Fact>
          </SimpleGrid>
        </Card>
        <Card withBorder padding="lg" component="section" aria-labelledby="targets">
          <Title order={2} size="h4" id="targets" mb="sm">
            Target groups
          </Title>
          {c.groups.length === 0 ? (
            <Text c="dimmed">This campaign targets no group yet.</Text>
          ) : (
            <List>
              {c.groups.map((g) => (
                <List.Item key={g.id}>
                  <Anchor component={Link} to={accountPath(account.id, 'groups', g.id)}>
                    {g.name}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          )}
        </Card>
      </Stack>
    </>
  );
}
