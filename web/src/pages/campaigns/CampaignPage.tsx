import { Alert, Anchor, Group as Row, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, call } from '../../api/client';
import type { Campaign } from '../../api/types';
import { BackLink } from '../../components/BackLink';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { NotFoundPage } from '../../components/NotFoundPage';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { accountPath, useAccount } from '../../layout/account-context';
import {
  CampaignActions,
  changeCampaignStatus,
  type LifecycleAction,
  NOT_READY_ID,
  stepped,
} from './CampaignActions';
import { CampaignFacts } from './CampaignFacts';
import { FIELD_LABELS, notReadyReason } from './campaign-fields';
import { EnrollmentsTable } from './EnrollmentsTable';
import { ProgressView } from './ProgressView';

/** While a campaign runs its figures move: read them again this often. */
export const LIVE_REFRESH_MS = 20_000;

const isLive = (c: Campaign | undefined) => c?.status === 'active';
const wasLaunched = (c: Campaign) =>
  c.launched_at !== null || ['active', 'completed', 'archived'].includes(c.status);

/** /a/:accountId/campaigns/:campaignId — a campaign: its lifecycle buttons, settings, progress and people. */
export function CampaignPage() {
  const account = useAccount();
  const queryClient = useQueryClient();
  const campaignId = Number(useParams().campaignId);
  const campaign = useQuery({
    queryKey: ['campaign', account.id, campaignId],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/campaigns/{campaignId}', {
          params: { path: { accountId: account.id, campaignId } },
        }),
      ),
    enabled: Number.isInteger(campaignId),
    refetchInterval: (query) => (isLive(query.state.data) ? LIVE_REFRESH_MS : false),
  });
  const step = useMutation({
    mutationFn: (action: LifecycleAction) => changeCampaignStatus(account.id, campaignId, action),
    onSuccess: (saved) => stepped(queryClient, account.id, saved),
  });
  const back = <BackLink to={accountPath(account.id, 'campaigns')}>Training campaigns</BackLink>;

  if (campaign.isPending && Number.isInteger(campaignId)) return <Loading />;
  if (!campaign.data) {
    return <NotFoundPage thing="campaign" back={back} error={campaign.error} />;
  }
  const c = campaign.data;
  const editPath = accountPath(account.id, 'campaigns', c.id, 'edit');
  const canRun = c.allowed_actions.includes('schedule') || c.allowed_actions.includes('launch');
  const notReady = canRun ? notReadyReason(c) : null;

  return (
    <>
      <PageHeader
        title={c.name}
        above={back}
        description={
          <Row gap="xs" component="span" align="center">
            {/* A live region: a step (Schedule, Launch…) is announced by the status it leads to. */}
            <span role="status">
              <StatusBadge status={c.status} size="lg" />
            </span>
            <Text component="span" size="sm" c="dimmed">
              Training campaign
            </Text>
          </Row>
        }
        actions={
          <CampaignActions
            accountId={account.id}
            campaign={c}
            onStep={(action) => step.mutate(action)}
            busy={step.isPending ? (step.variables ?? null) : null}
          />
        }
      />
      <Stack gap="lg">
        {notReady && (
          <Alert color="blue" variant="light" role="note" icon={<IconInfoCircle aria-hidden />}>
            <Text size="sm" id={NOT_READY_ID}>
              {notReady}
            </Text>
            {c.allowed_actions.includes('edit') && (
              <Anchor component={Link} to={editPath} size="sm">
                Edit the campaign
              </Anchor>
            )}
          </Alert>
        )}
        {step.error ? (
          <ErrorAlert
            error={step.error}
            title={`Could not ${step.variables ?? 'change'} the campaign`}
            fieldLabels={FIELD_LABELS}
          />
        ) : null}
        {step.error && c.allowed_actions.includes('edit') ? (
          <Text size="sm">
            <Anchor component={Link} to={editPath}>
              Edit the campaign
            </Anchor>{' '}
            to fix what is missing, then try again.
          </Text>
        ) : null}
        {c.description && (
          <Text style={{ whiteSpace: 'pre-line' }} maw={820}>
            {c.description}
          </Text>
        )}
        <CampaignFacts accountId={account.id} campaign={c} />
        {wasLaunched(c) ? (
          <>
            <ProgressView accountId={account.id} campaign={c} live={isLive(c)} />
            <EnrollmentsTable accountId={account.id} campaign={c} live={isLive(c)} />
          </>
        ) : (
          <Text c="dimmed">
            Nobody is enrolled yet. People are enrolled and invited when the campaign is launched
            {c.status === 'scheduled' ? ' at its start date' : ' (now, or at its start date once scheduled)'}.
          </Text>
        )}
      </Stack>
    </>
  );
}
