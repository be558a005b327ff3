import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconArchive,
  IconCalendarCancel,
  IconCalendarEvent,
  IconPencil,
  IconPlayerPlay,
  IconPlayerStop,
  IconTrash,
} from '@tabler/icons-react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client';
import type { Campaign, CampaignAction } from '../../api/types';
import { ConfirmDelete } from '../../components/ConfirmDelete';
import { plural } from '../../components/format';
import { invalidateAccount } from '../../components/invalidate';
import { accountPath } from '../../layout/account-context';
import { FIELD_LABELS, notReadyReason } from './campaign-fields';

/** The id of the page's text saying why Schedule and Launch are disabled (see notReadyReason). */
export const NOT_READY_ID = 'campaign-not-ready';

/** The lifecycle steps that are a `POST …/campaigns/{campaignId}/<action>`. */
export type LifecycleAction = Exclude<CampaignAction, 'edit' | 'delete'>;

/** Schedule, unschedule, launch, stop or archive: one step of the lifecycle. */
export function changeCampaignStatus(accountId: number, campaignId: number, action: LifecycleAction) {
  return call(
    api.POST(`/accounts/{accountId}/campaigns/{campaignId}/${action}`, {
      params: { path: { accountId, campaignId } },
    }),
  );
}

interface CampaignActionsProps {
  accountId: number;
  campaign: Campaign;
  /** Runs a step without asking (schedule, unschedule, archive); the page shows its error. */
  onStep: (action: LifecycleAction) => void;
  busy: LifecycleAction | null;
}

/** The campaign's buttons: exactly those its `allowed_actions` list, in the order of the lifecycle. */
export function CampaignActions({ accountId, campaign, onStep, busy }: CampaignActionsProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'launch' | 'stop' | 'delete' | null>(null);
  const allowed = (action: CampaignAction) => campaign.allowed_actions.includes(action);
  const close = () => setDialog(null);
  // An empty draft cannot run: its Schedule and Launch stay visible but disabled, and the page says why.
  const notReady = notReadyReason(campaign) !== null;
  const runnable = { disabled: notReady, 'aria-describedby': notReady ? NOT_READY_ID : undefined };

  const step = async (action: LifecycleAction) => {
    const saved = await changeCampaignStatus(accountId, campaign.id, action);
    stepped(queryClient, accountId, saved);
  };
  const remove = async () => {
    await call(
      api.DELETE('/accounts/{accountId}/campaigns/{campaignId}', {
        params: { path: { accountId, campaignId: campaign.id } },
      }),
    );
    invalidateAccount(queryClient, accountId, 'campaigns', 'overview', 'courses');
    queryClient.removeQueries({ queryKey: ['campaign', accountId, campaign.id] });
    notifications.show({ color: 'teal', message: `Deleted campaign "${campaign.name}"` });
    navigate(accountPath(accountId, 'campaigns'), { replace: true });
  };
  const icon = (Icon: typeof IconPencil) => <Icon size={16} aria-hidden />;

  return (
    <>
      {allowed('edit') && (
        <Button
          variant="default"
          leftSection={icon(IconPencil)}
          onClick={() => navigate(accountPath(accountId, 'campaigns', campaign.id, 'edit'))}
        >
          Edit campaign
        </Button>
      )}
      {allowed('schedule') && (
        <Button
          variant="light"
          leftSection={icon(IconCalendarEvent)}
          loading={busy === 'schedule'}
          onClick={() => onStep('schedule')}
          {...runnable}
        >
          Schedule
        </Button>
      )}
      {allowed('unschedule') && (
        <Button
          variant="default"
          leftSection={icon(IconCalendarCancel)}
          loading={busy === 'unschedule'}
          onClick={() => onStep('unschedule')}
        >
          Unschedule
        </Button>
      )}
      {allowed('launch') && (
        <Button leftSection={icon(IconPlayerPlay)} onClick={() => setDialog('launch')} {...runnable}>
          Launch now
        </Button>
      )}
      {allowed('stop') && (
        <Button
          color="red"
          variant="light"
          leftSection={icon(IconPlayerStop)}
          onClick={() => setDialog('stop')}
        >
          Stop campaign
        </Button>
      )}
      {allowed('archive') && (
        <Button
          variant="default"
          leftSection={icon(IconArchive)}
          loading={busy === 'archive'}
          onClick={() => onStep('archive')}
        >
          Archive
        </Button>
      )}
      {allowed('delete') && (
        <Button
          variant="default"
          color="red"
          leftSection={icon(IconTrash)}
          onClick={() => setDialog('delete')}
        >
          Delete draft
        </Button>
      )}

      <ConfirmDelete
        opened={dialog === 'launch'}
        onClose={close}
        title="Launch the campaign now?"
        confirmLabel="Launch"
        confirmColor="indigo"
        onConfirm={() => step('launch')}
        fieldLabels={FIELD_LABELS}
      >
        <LaunchSummary accountId={accountId} campaign={campaign} enabled={dialog === 'launch'} />
      </ConfirmDelete>
      <ConfirmDelete
        opened={dialog === 'stop'}
        onClose={close}
        title="Stop the campaign?"
        confirmLabel="Stop campaign"
        onConfirm={() => step('stop')}
      >
        <strong>{campaign.name}</strong> becomes completed now: no more reminders are sent and nobody else is
        enrolled. Progress made so far is kept. This cannot be undone.
      </ConfirmDelete>
      <ConfirmDelete opened={dialog === 'delete'} onClose={close} title="Delete campaign?" onConfirm={remove}>
        The draft <strong>{campaign.name}</strong> will be deleted. Nobody has been invited to it.
      </ConfirmDelete>
    </>
  );
}

/**
 * After a lifecycle step: the new campaign in the cache, lists and figures stale. No toast: the
 * header's status (a live region) says what happened, and a toast would cover the buttons.
 */
export function stepped(queryClient: ReturnType<typeof useQueryClient>, accountId: number, saved: Campaign) {
  queryClient.setQueryData(['campaign', accountId, saved.id], saved);
  invalidateAccount(queryClient, accountId, 'campaigns', 'overview', 'progress', 'enrollments', 'messages');
}

/** "The 14 members of Finance are enrolled…": who a launch invites, from the groups' sizes. */
function LaunchSummary({
  accountId,
  campaign,
  enabled,
}: {
  accountId: number;
  campaign: Campaign;
  enabled: boolean;
}) {
  const groups = useQueries({
    queries: campaign.groups.map((g) => ({
      queryKey: ['group', accountId, g.id],
      queryFn: () =>
        call(
          api.GET('/accounts/{accountId}/groups/{groupId}', {
            params: { path: { accountId, groupId: g.id } },
          }),
        ),
      enabled,
    })),
  });
  const sizes = groups.map((q) => q.data?.employee_count);
  const known = sizes.every((n) => n !== undefined);
  const total = sizes.reduce<number>((sum, n) => sum + (n ?? 0), 0);
  const names = campaign.groups.map((g, i) => `${g.name}${sizes[i] === undefined ? '' : ` (${sizes[i]})`}`);

  let who: string;
  if (campaign.groups.length === 0) who = 'Nobody is targeted yet.';
  else if (!known) who = `Every member of ${names.join(', ')} is enrolled and sent an invitation.`;
  else if (campaign.groups.length === 1)
    who = `${plural(total, 'person', 'people')} in ${campaign.groups[0]?.name} will be enrolled and sent an invitation.`;
  else
    who = `Up to ${plural(total, 'person', 'people')} in ${names.join(', ')} will be enrolled and sent an invitation (someone in several groups is enrolled once).`;

  return (
    <>
      <p style={{ marginTop: 0 }}>{who}</p>
      <p style={{ marginBottom: 0 }}>
        The campaign starts now; its courses and target groups cannot change afterwards.
      </p>
    </>
  );
}
