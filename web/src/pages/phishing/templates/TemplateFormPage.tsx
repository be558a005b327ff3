import {
  Alert,
  Box,
  Card,
  Code,
  Grid,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, call } from '../../../api/client';
import { fieldName, UNNAMED_FIELD } from '../../../api/field-names';
import { FORM_FIELDS } from '../../../api/form-fields';
import { useLimits } from '../../../api/limits';
import { BackLink } from '../../../components/BackLink';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { fieldError } from '../../../components/form-errors';
import { invalidateAccount } from '../../../components/invalidate';
import { Loading } from '../../../components/Loading';
import { PageHeader } from '../../../components/PageHeader';
import { PageSection } from '../../../components/PageSection';
import { SaveForm } from '../../../components/SaveForm';
import { accountPath, useAccount } from '../../../layout/account-context';
import { RedFlagsEditor } from './RedFlagsEditor';
import { TemplatePreviewPanel } from './TemplatePreviewPanel';
import { categoryLabel, difficultyLabel } from './template-format';
import { STARTER_TEMPLATE } from './template-starter';
import type { PhishingTemplate, TemplateDraft } from './template-types';
import { inputOf, usePreview, useTemplate } from './use-template';

/** /a/:accountId/phishing/templates/new and …/:templateKey/edit (the account's own templates only). */
export function TemplateFormPage() {
  const account = useAccount();
  const key = useParams().templateKey;
  const template = useTemplate(account.id, key);
  const back = (
    <BackLink to={accountPath(account.id, 'phishing', 'templates', ...(key ? [key] : []))}>
      {key ? (template.data?.name ?? 'Template') : 'Phishing templates'}
    </BackLink>
  );
  if (key === undefined) return <TemplateForm template={null} back={back} />;
  if (template.isPending) return <Loading />;
  if (template.data?.source !== 'custom') {
    return (
      <>
        <PageHeader
          title={template.data ? 'Built-in templates cannot change' : 'Template not found'}
          above={back}
        />
        <ErrorAlert
          error={
            template.error ??
            new Error(
              template.data ? 'Clone it into a template of your own.' : 'This template does not exist.',
            )
          }
        />
      </>
    );
  }
  return <TemplateForm key={template.data.key} template={template.data} back={back} />;
}

const VARIABLES =
  '{{first_name}} {{last_name}} {{email}} {{company}} {{link}} {{sender_name}} {{sender_domain}}';
const mono = { input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } };

function TemplateForm({ template, back }: { template: PhishingTemplate | null; back: ReactNode }) {
  const account = useAccount();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const limits = useLimits().phishing_template;
  const [draft, setDraft] = useState<TemplateDraft>(() => (template ? inputOf(template) : STARTER_TEMPLATE));
  const [debounced] = useDebouncedValue(draft, 400);
  const preview = usePreview(account.id, debounced);
  const set =
    <K extends keyof TemplateDraft>(field: K) =>
    (value: TemplateDraft[K]) =>
      setDraft((d) => ({ ...d, [field]: value }));

  const save = useMutation({
    mutationFn: () =>
      template
        ? call(
            api.PUT('/accounts/{accountId}/phishing/templates/{templateKey}', {
              params: { path: { accountId: account.id, templateKey: template.key } },
              body: draft,
            }),
          )
        : call(
            api.POST('/accounts/{accountId}/phishing/templates', {
              params: { path: { accountId: account.id } },
              body: draft,
            }),
          ),
    onSuccess: (saved) => {
      queryClient.setQueryData(['phishing-template', account.id, saved.key], saved);
      invalidateAccount(queryClient, account.id, 'phishing-templates');
      notifications.show({
        color: 'teal',
        message: template ? `Saved template "${saved.name}"` : `Created template "${saved.name}"`,
      });
      navigate(accountPath(account.id, 'phishing', 'templates', saved.key));
    },
  });
  // The save's answer when there is one, else the live check of what is typed (named fields only).
  const live = preview.data?.errors ?? {};
  const error = (field: string) =>
    fieldError(save.error, field) ??
    (field === 'name' && !draft.name.trim() ? undefined : live[field]?.join('; '));
  const shown = [
    ...['name', 'summary', 'subject', 'sender_name', 'sender_address', 'html', 'text', 'landing_html'],
    ...['difficulty', 'category', 'language', 'red_flags'],
    ...draft.red_flags.flatMap((_, i) => ['text', 'part', 'quote'].map((f) => `red_flags[${i}].${f}`)),
  ];
  const text = (field: 'name' | 'summary' | 'subject' | 'sender_name' | 'sender_address' | 'language') => ({
    value: draft[field] ?? '',
    onChange: (e: { currentTarget: { value: string } }) => set(field)(e.currentTarget.value),
    error: error(field),
  });
  const body = (field: 'html' | 'text' | 'landing_html') => ({
    value: draft[field],
    onChange: (e: { currentTarget: { value: string } }) => set(field)(e.currentTarget.value),
    error: error(field),
    autosize: true,
    minRows: 6,
    maxRows: 18,
    styles: mono,
    spellCheck: false,
  });

  return (
    <>
      <PageHeader
        title={template ? `Edit ${template.name}` : 'New phishing template'}
        above={back}
        description="The email, the page its link opens, and the red flags people are shown after a click. The preview follows what you type."
      />
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <SaveForm
            save={save}
            fields={shown}
            fieldLabels={FORM_FIELDS.template.names}
            errorTitle="Could not save the template"
            onCancel={() => navigate(-1)}
            submitLabel={template ? 'Save changes' : 'Create template'}
            gap="lg"
          >
            <Card withBorder padding="lg">
              <Stack gap="md">
                <TextInput label="Name" required maxLength={limits.name_max} {...text('name')} />
                <Textarea
                  label="Summary"
                  description="Shown in the library: what the email pretends, and what gives it away."
                  autosize
                  minRows={2}
                  maxRows={4}
                  maxLength={limits.summary_max}
                  {...text('summary')}
                />
                <SimpleGrid cols={{ base: 1, xs: 3 }}>
                  <NativeSelect
                    label="Difficulty"
                    value={String(draft.difficulty)}
                    onChange={(e) => set('difficulty')(Number(e.currentTarget.value))}
                    data={[1, 2, 3, 4, 5].map((d) => ({ value: String(d), label: difficultyLabel(d) }))}
                    error={error('difficulty')}
                  />
                  <NativeSelect
                    label="Category"
                    value={draft.category}
                    onChange={(e) => set('category')(e.currentTarget.value)}
                    data={limits.categories.map((c) => ({ value: c, label: categoryLabel(c) }))}
                    error={error('category')}
                  />
                  <TextInput label="Language" maxLength={20} {...text('language')} />
                </SimpleGrid>
              </Stack>
            </Card>
            <PageSection title="Email">
              <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden />}>
                <Text size="sm">
                  Variables: <Code>{VARIABLES}</Code>. Both bodies need <Code>{'{{link}}'}</Code>, the
                  personal link that records the click. Values are escaped; scripts are never run.
                </Text>
              </Alert>
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <TextInput label="Sender name" maxLength={limits.sender_name_max} {...text('sender_name')} />
                <TextInput
                  label="Sender address"
                  description="The part before the @: the campaign chooses the domain"
                  rightSection={
                    <Text size="xs" c="dimmed" pr={4}>
                      @…
                    </Text>
                  }
                  maxLength={limits.sender_address_max}
                  {...text('sender_address')}
                />
              </SimpleGrid>
              <TextInput label="Subject" maxLength={limits.subject_max} {...text('subject')} />
              <Textarea label="HTML body" maxLength={limits.html_max} {...body('html')} />
              <Textarea label="Text body" maxLength={limits.text_max} {...body('text')} />
            </PageSection>
            <PageSection title="Landing page">
              <Text size="sm" c="dimmed">
                The page the link opens. Forms post back to Vigil, which records that a form was sent and the
                field names, never what was typed. Scripts, external images and links are removed.
              </Text>
              <Textarea
                label="Landing page HTML"
                maxLength={limits.landing_html_max}
                {...body('landing_html')}
              />
            </PageSection>
            <PageSection title="Red flags" error={error('red_flags')}>
              <RedFlagsEditor flags={draft.red_flags} onChange={set('red_flags')} error={error} />
            </PageSection>
          </SaveForm>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <Box pos={{ base: 'static', lg: 'sticky' }} top={16}>
            <PageSection title="Live preview">
              <ErrorAlert
                error={preview.error}
                title="Could not render the preview"
                fieldLabels={FORM_FIELDS.template.names}
              />
              <PreviewProblems errors={live} />
              <TemplatePreviewPanel
                preview={preview.data}
                flags={draft.red_flags}
                updating={preview.isFetching || debounced !== draft}
              />
            </PageSection>
          </Box>
        </Grid.Col>
      </Grid>
    </>
  );
}

/** A field of the API as the form names it: `red_flags[1].quote` → "Red flag 2, quote". */
function fieldLabel(field: string): string {
  return fieldName(FORM_FIELDS.template.names, field) ?? UNNAMED_FIELD;
}

/** What the live check finds, in one list beside the preview (each also shows on its input). */
function PreviewProblems({ errors }: { errors: Record<string, string[]> }) {
  const entries = Object.entries(errors);
  if (entries.length === 0) {
    return (
      <Text size="sm" c="teal.9" role="status">
        No problems found: this template can be saved.
      </Text>
    );
  }
  return (
    <Alert
      color="orange"
      variant="light"
      role="status"
      title={`${entries.length === 1 ? 'One problem' : `${entries.length} problems`} to correct`}
    >
      <Stack gap={2} component="ul" m={0} pl="md">
        {entries.map(([field, messages]) => (
          <Text key={field} size="sm" component="li">
            <Text span fw={600} size="sm">
              {fieldLabel(field)}
            </Text>
            : {messages.join('; ')}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
