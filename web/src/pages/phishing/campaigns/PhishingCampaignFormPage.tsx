import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  MultiSelect,
  NumberInput,
  Group as Row,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  sendPlan,
  type WeekdayName,
  weekdaysToMask,
} from '../../../../../src/modules/phishing/campaigns/campaigns.window.model.js';
import { api, call } from '../../../api/client';
import { FORM_FIELDS } from '../../../api/form-fields';
import { BackLink } from '../../../components/BackLink';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Loading } from '../../../components/Loading';
import { PageHeader } from '../../../components/PageHeader';
import { accountPath, useAccount } from '../../../layout/account-context';
import { CoursePicker } from '../../campaigns/CoursePicker';
import { GroupPicker, type PickedGroup } from '../../campaigns/GroupPicker';
import { categoryLabel, difficultyLabel } from '../templates/template-format';
import { type TemplateSummary, usePhishingSettings, useTemplatePool } from './phishing-api';
import { formatPlanned, fromZonedInput, toZonedInput } from './zoned-time';

const WEEKDAYS = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
] as const;

const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
})();

/** The picker's options: built-in and the account's own, plus chosen keys no longer listed. */
function templateOptions(pool: TemplateSummary[], chosen: string[]) {
  const item = (t: TemplateSummary) => ({ value: t.key, label: t.name });
  const known = new Set(pool.map((t) => t.key));
  const groups = [
    { group: 'Your templates', items: pool.filter((t) => t.source === 'custom').map(item) },
    { group: 'Built-in library', items: pool.filter((t) => t.source === 'builtin').map(item) },
    {
      group: 'No longer available',
      items: chosen.filter((k) => !known.has(k)).map((k) => ({ value: k, label: k })),
    },
  ];
  return groups.filter((g) => g.items.length > 0);
}

interface Form {
  name: string;
  description: string;
  groups: PickedGroup[];
  template_keys: string[];
  window_start: string;
  window_end: string;
  weekdays: string[];
  hour_start: number;
  hour_end: number;
  time_zone: string;
  landing: string;
  remedial_on: string;
  remedial_course_keys: string[];
  remedial_due_days: number;
  grace_hours: number;
  sender_name: string;
  sender_address: string;
  sender_domain: string;
}

const EMPTY: Form = {
  name: '',
  description: '',
  groups: [],
  template_keys: [],
  window_start: '',
  window_end: '',
  weekdays: ['mon', 'tue', 'wed', 'thu', 'fri'],
  hour_start: 9,
  hour_end: 17,
  time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  landing: 'teach_on_click',
  remedial_on: 'click',
  remedial_course_keys: [],
  remedial_due_days: 14,
  grace_hours: 72,
  sender_name: '',
  sender_address: '',
  sender_domain: '',
};

const HOUR_MS = 3_600_000;

/**
 * Whether the window, weekdays and hours leave sending time in the next 24 hours, by the same
 * plan the server's launch draws from (campaigns.window.model.ts); null while the window is incomplete.
 */
function nextDayPlan(form: Form, now: number) {
  const startAt = Date.parse(fromZonedInput(form.window_start, form.time_zone) ?? '');
  const endAt = Date.parse(fromZonedInput(form.window_end, form.time_zone) ?? '');
  if (!Number.isFinite(startAt) || !Number.isFinite(endAt) || endAt <= startAt) return null;
  if (form.hour_end <= form.hour_start) return null;
  return sendPlan(
    {
      startAt,
      endAt,
      weekdays: weekdaysToMask(form.weekdays as WeekdayName[]),
      hourStart: form.hour_start,
      hourEnd: form.hour_end,
      timeZone: form.time_zone,
    },
    now,
  );
}

/** A warning under the hours when nothing could go out within a day of launching now. */
function SendingTimeWarning({ form }: { form: Form }) {
  const plan = nextDayPlan(form, Date.now());
  if (!plan || plan.openNextDayMs > 0) return null;
  return (
    <Alert color="yellow" title="Nothing goes out in the next 24 hours" role="status">
      {plan.firstAt === null ? (
        'The window, weekdays and hours leave no sending time at all: no simulation could be sent.'
      ) : (
        <>
          With these weekdays and hours, a launch now sends its first simulation on{' '}
          <strong>{formatPlanned(new Date(plan.firstAt).toISOString(), form.time_zone).campaign}</strong>
          {plan.firstAt - Date.now() > 48 * HOUR_MS ? ', more than two days from now' : ''}. Until then the
          campaign shows as running with nothing delivered.
        </>
      )}
    </Alert>
  );
}

/** /a/:accountId/phishing/campaigns/new and …/:campaignId/edit — a phishing campaign's settings. */
export function PhishingCampaignFormPage() {
  const account = useAccount();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const param = useParams().campaignId;
  const campaignId = param ? Number(param) : undefined;
  const [form, setForm] = useState<Form>(EMPTY);
  const pool = useTemplatePool(account.id);
  const settings = usePhishingSettings(account.id);
  const templateByKey = new Map((pool.data?.results ?? []).map((t) => [t.key, t]));
  const existing = useQuery({
    queryKey: ['phishing-campaign', account.id, campaignId],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/phishing/campaigns/{campaignId}', {
          params: { path: { accountId: account.id, campaignId: campaignId as number } },
        }),
      ),
    enabled: campaignId !== undefined,
  });
  useEffect(() => {
    const c = existing.data;
    if (!c) return;
    setForm({
      name: c.name,
      description: c.description,
      groups: c.groups,
      template_keys: c.template_keys,
      window_start: toZonedInput(c.window_start_at, c.time_zone),
      window_end: toZonedInput(c.window_end_at, c.time_zone),
      weekdays: c.weekdays,
      hour_start: c.hour_start,
      hour_end: c.hour_end,
      time_zone: c.time_zone,
      landing: c.landing,
      remedial_on: c.remedial_on,
      remedial_course_keys: c.remedial_course_keys,
      remedial_due_days: c.remedial_due_days,
      grace_hours: c.grace_hours,
      sender_name: c.sender_name ?? '',
      sender_address: c.sender_address ?? '',
      sender_domain: c.sender_domain ?? '',
    });
  }, [existing.data]);
  const set =
    <K extends keyof Form>(key: K) =>
    (value: Form[K]) =>
      setForm((f) => ({ ...f, [key]: value }));
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: form.name,
        description: form.description,
        group_ids: form.groups.map((g) => g.id),
        template_keys: form.template_keys,
        window_start_at: fromZonedInput(form.window_start, form.time_zone),
        window_end_at: fromZonedInput(form.window_end, form.time_zone),
        weekdays: form.weekdays,
        hour_start: form.hour_start,
        hour_end: form.hour_end,
        time_zone: form.time_zone,
        landing: form.landing,
        remedial_on: form.remedial_on,
        remedial_course_keys: form.remedial_course_keys,
        remedial_due_days: form.remedial_due_days,
        grace_hours: form.grace_hours,
        sender_name: form.sender_name.trim() || null,
        sender_address: form.sender_address.trim() || null,
        sender_domain: form.sender_domain.trim() || null,
      };
      return campaignId === undefined
        ? call(
            api.POST('/accounts/{accountId}/phishing/campaigns', {
              params: { path: { accountId: account.id } },
              body,
            }),
          )
        : call(
            api.PATCH('/accounts/{accountId}/phishing/campaigns/{campaignId}', {
              params: { path: { accountId: account.id, campaignId } },
              body,
            }),
          );
    },
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: ['phishing-campaigns', account.id] });
      queryClient.setQueryData(['phishing-campaign', account.id, saved.id], saved);
      navigate(accountPath(account.id, 'phishing', 'campaigns', saved.id));
    },
  });
  if (campaignId !== undefined && existing.isPending) return <Loading />;
  const locked = (field: string) =>
    existing.data !== undefined && existing.data.status !== 'draft' && existing.data.status !== 'scheduled'
      ? !['name', 'description', 'grace_hours'].includes(field)
      : false;
  return (
    <>
      <BackLink to={accountPath(account.id, 'phishing')}>Phishing simulations</BackLink>
      <PageHeader
        title={campaignId === undefined ? 'New phishing campaign' : `Edit ${existing.data?.name ?? ''}`}
      />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack maw={720}>
          <ErrorAlert
            error={save.error}
            title="Could not save the campaign"
            fieldLabels={FORM_FIELDS.phishingCampaign.names}
          />
          <TextInput
            label="Name"
            required
            value={form.name}
            onChange={(e) => set('name')(e.currentTarget.value)}
          />
          <Textarea
            label="Description"
            value={form.description}
            onChange={(e) => set('description')(e.currentTarget.value)}
          />
          <GroupPicker
            accountId={account.id}
            value={form.groups}
            onChange={set('groups')}
            disabled={locked('group_ids')}
          />
          <ErrorAlert error={pool.error} title="Could not load the templates" />
          <MultiSelect
            label="Templates"
            description="One template, or a pool: each person gets one drawn at random."
            placeholder={
              pool.isPending
                ? 'Loading the templates…'
                : form.template_keys.length === 0
                  ? 'Pick one or more'
                  : undefined
            }
            data={templateOptions(pool.data?.results ?? [], form.template_keys)}
            value={form.template_keys}
            onChange={set('template_keys')}
            searchable
            nothingFoundMessage="No template matches"
            maxDropdownHeight={320}
            renderOption={({ option }) => {
              const t = templateByKey.get(option.value);
              return (
                <Stack gap={0}>
                  <Text size="sm">{option.label}</Text>
                  {t && (
                    <Text size="xs" c="dimmed">
                      Difficulty {difficultyLabel(t.difficulty)} · {categoryLabel(t.category)}
                    </Text>
                  )}
                </Stack>
              );
            }}
            disabled={locked('template_keys')}
          />
          <Select
            label="Time zone"
            description="The window's dates, the weekdays and the hours are in this zone."
            // Chromium's list leaves out UTC and some names a campaign may hold (Asia/Kolkata).
            data={[...new Set([form.time_zone, 'UTC', ...ZONES])].sort()}
            searchable
            value={form.time_zone}
            onChange={(v) => set('time_zone')(v ?? 'UTC')}
            disabled={locked('time_zone')}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              type="datetime-local"
              label="Window starts"
              description={`In ${form.time_zone}`}
              value={form.window_start}
              onChange={(e) => set('window_start')(e.currentTarget.value)}
              disabled={locked('window_start_at')}
            />
            <TextInput
              type="datetime-local"
              label="Window ends"
              description={`In ${form.time_zone}`}
              value={form.window_end}
              onChange={(e) => set('window_end')(e.currentTarget.value)}
              disabled={locked('window_end_at')}
            />
          </SimpleGrid>
          <Checkbox.Group label="Weekdays" value={form.weekdays} onChange={set('weekdays')}>
            <Row gap="sm" mt={4}>
              {WEEKDAYS.map(([value, label]) => (
                <Checkbox key={value} value={value} label={label} disabled={locked('weekdays')} />
              ))}
            </Row>
          </Checkbox.Group>
          <Row grow>
            <NumberInput
              label="From hour"
              min={0}
              max={23}
              value={form.hour_start}
              onChange={(v) => set('hour_start')(Number(v))}
              disabled={locked('hour_start')}
            />
            <NumberInput
              label="Until hour"
              min={1}
              max={24}
              value={form.hour_end}
              onChange={(v) => set('hour_end')(Number(v))}
              disabled={locked('hour_end')}
            />
          </Row>
          <SendingTimeWarning form={form} />
          <Fieldset legend="Sender" variant="unstyled">
            <Stack gap="xs">
              <Text size="xs" c="dimmed">
                Left empty, each part is the account’s default (Phishing settings), else the template’s own
                name and address and the domain {settings.data?.default_sender_domain ?? 'of PHISH_URL'}.
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <TextInput
                  label="Sender name"
                  placeholder={settings.data?.sender_name ?? 'The template’s'}
                  maxLength={100}
                  value={form.sender_name}
                  onChange={(e) => set('sender_name')(e.currentTarget.value)}
                  disabled={locked('sender_name')}
                />
                <TextInput
                  label="Sender address"
                  description="The part before the @"
                  placeholder={settings.data?.sender_address ?? 'The template’s'}
                  maxLength={64}
                  rightSection={<Text size="sm">@</Text>}
                  value={form.sender_address}
                  onChange={(e) => set('sender_address')(e.currentTarget.value)}
                  disabled={locked('sender_address')}
                />
                <TextInput
                  label="Sender domain"
                  description="e.g. mail.example.com"
                  placeholder={settings.data?.sender_domain ?? settings.data?.default_sender_domain}
                  maxLength={253}
                  value={form.sender_domain}
                  onChange={(e) => set('sender_domain')(e.currentTarget.value)}
                  disabled={locked('sender_domain')}
                />
              </SimpleGrid>
            </Stack>
          </Fieldset>
          <Select
            label="Landing"
            data={[
              { value: 'teach_on_click', label: 'Teach on click' },
              { value: 'teach_on_submit', label: 'Show the landing page, teach after the form' },
            ]}
            value={form.landing}
            onChange={(v) => set('landing')(v ?? 'teach_on_click')}
            disabled={locked('landing')}
          />
          <CoursePicker
            accountId={account.id}
            value={form.remedial_course_keys}
            onChange={set('remedial_course_keys')}
            description="Given to the people who fail."
            disabled={locked('course_keys')}
          />
          <Select
            label="Failing means"
            data={[
              { value: 'click', label: 'Clicking the link' },
              { value: 'submit', label: 'Submitting the form' },
            ]}
            value={form.remedial_on}
            onChange={(v) => set('remedial_on')(v ?? 'click')}
            disabled={locked('remedial_on')}
          />
          <NumberInput
            label="Training due after (days)"
            description="From the day a person fails; the training's reminders go out before it."
            min={1}
            max={365}
            allowDecimal={false}
            value={form.remedial_due_days}
            onChange={(v) => set('remedial_due_days')(Number(v))}
            disabled={locked('remedial_due_days')}
          />
          <NumberInput
            label="Grace period (hours)"
            description="Clicks still count this long after the window ends."
            min={0}
            value={form.grace_hours}
            onChange={(v) => set('grace_hours')(Number(v))}
          />
          <Row>
            <Button type="submit" loading={save.isPending}>
              {campaignId === undefined ? 'Create draft' : 'Save'}
            </Button>
          </Row>
        </Stack>
      </form>
    </>
  );
}
