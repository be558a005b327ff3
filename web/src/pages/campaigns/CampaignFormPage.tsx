import { Alert, Card, SimpleGrid, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, call } from '../../api/client';
import { useLimits } from '../../api/limits';
import type { Campaign, CampaignInput } from '../../api/types';
import { BackLink } from '../../components/BackLink';
import { fieldError } from '../../components/form-errors';
import { invalidateAccount } from '../../components/invalidate';
import { Loading } from '../../components/Loading';
import { NotFoundPage } from '../../components/NotFoundPage';
import { PageHeader } from '../../components/PageHeader';
import { SaveForm } from '../../components/SaveForm';
import { DescriptionInput, NameInput } from '../../components/TextInputs';
import { accountPath, useAccount } from '../../layout/account-context';
import { CoursePicker } from './CoursePicker';
import { editableFields, FIELD_LABELS, type Field, FORM_FIELDS, STATUS_HINT } from './campaign-fields';
import { fromLocalInput, timeZoneText, toLocalInput, utcText } from './date-input';
import { GroupPicker, type PickedGroup } from './GroupPicker';

const REMINDER_PRESETS = ['14', '7', '3', '2', '1'];

/** /a/:accountId/campaigns/new and …/campaigns/:campaignId/edit */
export function CampaignFormPage() {
  const account = useAccount();
  const raw = useParams().campaignId;
  const campaignId = raw === undefined ? null : Number(raw);
  const campaign = useQuery({
    queryKey: ['campaign', account.id, campaignId],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/campaigns/{campaignId}', {
          params: { path: { accountId: account.id, campaignId: campaignId ?? 0 } },
        }),
      ),
    enabled: campaignId !== null && Number.isInteger(campaignId),
  });
  const back = (
    <BackLink to={accountPath(account.id, 'campaigns', ...(campaignId === null ? [] : [campaignId]))}>
      {campaignId === null ? 'Training campaigns' : (campaign.data?.name ?? 'Campaign')}
    </BackLink>
  );

  if (campaignId === null) return <CampaignForm campaign={null} back={back} />;
  if (campaign.isPending && Number.isInteger(campaignId)) return <Loading />;
  if (!campaign.data) {
    return <NotFoundPage thing="campaign" back={back} error={campaign.error} />;
  }
  return <CampaignForm key={campaign.data.id} campaign={campaign.data} back={back} />;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replaceAll(' ', '-')}`;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="md">
        {title}
      </Title>
      <Stack gap="md">{children}</Stack>
    </Card>
  );
}

function CampaignForm({ campaign, back }: { campaign: Campaign | null; back: ReactNode }) {
  const account = useAccount();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(campaign?.name ?? '');
  const [description, setDescription] = useState(campaign?.description ?? '');
  const [courseKeys, setCourseKeys] = useState(campaign?.courses.map((c) => c.key) ?? []);
  const [groups, setGroups] = useState<PickedGroup[]>(campaign?.groups ?? []);
  const [start, setStart] = useState(toLocalInput(campaign?.start_date ?? null));
  const [due, setDue] = useState(toLocalInput(campaign?.due_date ?? null));
  const [reminders, setReminders] = useState((campaign?.reminder_days ?? [7, 1]).map(String));
  const [enrollNew, setEnrollNew] = useState(campaign?.enroll_new_members ?? true);

  const limits = useLimits();
  const editable = editableFields(campaign, limits);
  const hint = campaign ? STATUS_HINT[campaign.status] : undefined;
  const fixed = (field: Field) => !editable.has(field);
  const describe = (field: Field, text?: string) => (fixed(field) ? hint?.fixed : text);

  const save = useMutation({
    mutationFn: () => {
      const values: CampaignInput = {
        name: name.trim(),
        description: description.trim(),
        course_keys: courseKeys,
        group_ids: groups.map((g) => g.id),
        start_date: fromLocalInput(start),
        due_date: fromLocalInput(due),
        reminder_days: reminders.map(Number),
        enroll_new_members: enrollNew,
      };
      // Only what the status lets change: the rest is not sent at all.
      const input = Object.fromEntries(Object.entries(values).filter(([k]) => editable.has(k as Field)));
      return campaign
        ? call(
            api.PATCH('/accounts/{accountId}/campaigns/{campaignId}', {
              params: { path: { accountId: account.id, campaignId: campaign.id } },
              body: input,
            }),
          )
        : call(
            api.POST('/accounts/{accountId}/campaigns', {
              params: { path: { accountId: account.id } },
              body: values,
            }),
          );
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(['campaign', account.id, saved.id], saved);
      invalidateAccount(queryClient, account.id, 'campaigns', 'overview', 'progress', 'courses');
      notifications.show({
        color: 'teal',
        message: campaign ? `Saved campaign "${saved.name}"` : `Created campaign "${saved.name}"`,
      });
      navigate(accountPath(account.id, 'campaigns', saved.id));
    },
  });
  const error = (field: Field) => fieldError(save.error, field);
  const zone = timeZoneText();
  const dateDescription = (field: 'start_date' | 'due_date', value: string, text: string) => {
    if (fixed(field)) return hint?.fixed;
    const iso = fromLocalInput(value);
    // In another zone than UTC, also say the UTC time the server keeps.
    const utc = iso && zone !== 'UTC' ? ` (${utcText(iso)})` : '';
    return `${text} Time zone: ${zone}${utc}.`;
  };

  return (
    <>
      <PageHeader
        title={campaign ? `Edit ${campaign.name}` : 'New campaign'}
        above={back}
        description={
          campaign
            ? 'Change the campaign; what can change depends on its status.'
            : 'A new campaign starts as a draft: nobody is invited until you schedule or launch it.'
        }
      />
      <SaveForm
        save={save}
        fields={FORM_FIELDS}
        fieldLabels={FIELD_LABELS}
        errorTitle="Could not save the campaign"
        intro={
          hint && (
            <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />}>
              {hint.alert}
            </Alert>
          )
        }
        onCancel={() => navigate(-1)}
        submitLabel={campaign ? 'Save changes' : 'Create campaign'}
        canSave={editable.size > 0}
        maw={820}
        gap="lg"
      >
        <Section title="About">
          <NameInput value={name} onChange={setName} disabled={fixed('name')} error={error('name')} />
          <DescriptionInput
            description="Optional: what the campaign is for."
            maxRows={8}
            value={description}
            onChange={setDescription}
            disabled={fixed('description')}
            error={error('description')}
          />
        </Section>
        <Section title="Who learns what">
          <CoursePicker
            accountId={account.id}
            value={courseKeys}
            onChange={setCourseKeys}
            known={campaign?.courses}
            disabled={fixed('course_keys')}
            description={describe('course_keys', 'Everyone enrolled takes each of these courses.')}
            error={error('course_keys')}
          />
          <GroupPicker
            accountId={account.id}
            value={groups}
            onChange={setGroups}
            disabled={fixed('group_ids')}
            description={describe(
              'group_ids',
              'Every member of these groups is enrolled once, even if they are in several.',
            )}
            error={error('group_ids')}
          />
          <Switch
            label="Enroll people who join a target group while the campaign is active"
            description={describe(
              'enroll_new_members',
              'They are enrolled and invited as soon as they are added to the group.',
            )}
            checked={enrollNew}
            onChange={(e) => setEnrollNew(e.currentTarget.checked)}
            disabled={fixed('enroll_new_members')}
            error={error('enroll_new_members')}
          />
        </Section>
        <Section title="Schedule">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              type="datetime-local"
              label="Start date"
              description={dateDescription(
                'start_date',
                start,
                'Needed to schedule; launching now sets it to now.',
              )}
              value={start}
              onChange={(e) => setStart(e.currentTarget.value)}
              disabled={fixed('start_date')}
              error={error('start_date')}
            />
            <TextInput
              type="datetime-local"
              label="Due date"
              description={dateDescription('due_date', due, 'Needed to schedule or launch.')}
              value={due}
              onChange={(e) => setDue(e.currentTarget.value)}
              disabled={fixed('due_date')}
              error={error('due_date')}
            />
          </SimpleGrid>
          <TagsInput
            label="Reminders"
            description={describe(
              'reminder_days',
              `Days before the due date on which people who have not finished are reminded. Pick or type whole days (1–${limits.campaign.reminder_day_max}).`,
            )}
            placeholder={fixed('reminder_days') ? undefined : 'Days, e.g. 7'}
            data={REMINDER_PRESETS}
            value={reminders}
            onChange={(values) =>
              setReminders(
                [...new Set(values.map((v) => v.trim()).filter((v) => /^\d{1,3}$/.test(v) && Number(v) > 0))]
                  .map(Number)
                  .sort((a, b) => b - a)
                  .map(String),
              )
            }
            splitChars={[',', ' ']}
            maxTags={limits.campaign.reminders_max}
            disabled={fixed('reminder_days')}
            error={error('reminder_days')}
            clearable={!fixed('reminder_days')}
            comboboxProps={{ withinPortal: true }}
          />
          {!fixed('reminder_days') && reminders.length === 0 && (
            <Text size="sm" c="dimmed">
              No reminders: only the invitation is sent.
            </Text>
          )}
        </Section>
      </SaveForm>
    </>
  );
}
