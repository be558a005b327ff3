import { Anchor, Button, Card, Grid, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCopy } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, call } from '../../../api/client';
import { FORM_FIELDS } from '../../../api/form-fields';
import { BackLink } from '../../../components/BackLink';
import { EditDeleteButtons } from '../../../components/EditDeleteButtons';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Fact } from '../../../components/Fact';
import { invalidateAccount } from '../../../components/invalidate';
import { Loading } from '../../../components/Loading';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { PageHeader } from '../../../components/PageHeader';
import { PageSection } from '../../../components/PageSection';
import { accountPath, useAccount } from '../../../layout/account-context';
import { DeleteTemplateDialog } from './DeleteTemplateDialog';
import { TemplateBadges } from './TemplateBadges';
import { RedFlagList, TemplatePreviewPanel } from './TemplatePreviewPanel';
import { categoryLabel, difficultyLabel } from './template-format';
import { inputOf, usePreview, useTemplate } from './use-template';

/** /a/:accountId/phishing/templates/:templateKey — a template as people get it, with its red flags. */
export function TemplatePage() {
  const account = useAccount();
  const key = useParams().templateKey ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const template = useTemplate(account.id, key);
  const preview = usePreview(account.id, template.data ? inputOf(template.data) : null);
  const clone = useMutation({
    mutationFn: () =>
      call(
        api.POST('/accounts/{accountId}/phishing/templates/{templateKey}/clone', {
          params: { path: { accountId: account.id, templateKey: key } },
          body: {},
        }),
      ),
    onSuccess: (copy) => {
      invalidateAccount(queryClient, account.id, 'phishing-templates');
      queryClient.setQueryData(['phishing-template', account.id, copy.key], copy);
      notifications.show({ color: 'teal', message: `Created "${copy.name}"` });
      navigate(accountPath(account.id, 'phishing', 'templates', copy.key, 'edit'));
    },
  });
  const back = <BackLink to={accountPath(account.id, 'phishing', 'templates')}>Phishing templates</BackLink>;

  if (template.isPending) return <Loading />;
  if (!template.data) return <NotFoundPage thing="template" back={back} error={template.error} />;
  const t = template.data;
  const custom = t.source === 'custom';

  return (
    <>
      <PageHeader
        title={t.name}
        above={back}
        description={t.summary || undefined}
        actions={
          <>
            <Button
              variant={custom ? 'default' : 'filled'}
              leftSection={<IconCopy size={16} aria-hidden />}
              loading={clone.isPending}
              onClick={() => clone.mutate()}
            >
              Clone template
            </Button>
            {custom && (
              <EditDeleteButtons
                noun="template"
                onEdit={() => navigate(accountPath(account.id, 'phishing', 'templates', t.key, 'edit'))}
                onDelete={() => setDeleting(true)}
              />
            )}
          </>
        }
      />
      <Stack gap="lg">
        <ErrorAlert
          error={clone.error}
          title="Could not clone the template"
          fieldLabels={FORM_FIELDS.templateClone.names}
        />
        <Card withBorder padding="lg">
          <Stack gap="sm">
            <TemplateBadges difficulty={t.difficulty} category={t.category} source={t.source} />
            <SimpleGrid cols={{ base: 2, md: 4 }} component="dl" m={0}>
              <Fact label="Difficulty">{difficultyLabel(t.difficulty)}</Fact>
              <Fact label="Category">{categoryLabel(t.category)}</Fact>
              <Fact label="Language">{t.language}</Fact>
              {t.cloned_from && (
                <Fact label="Cloned from">
                  <Anchor
                    component={Link}
                    to={accountPath(account.id, 'phishing', 'templates', t.cloned_from)}
                  >
                    {t.cloned_from.startsWith('builtin:') ? 'A built-in template' : 'A template of yours'}
                  </Anchor>
                </Fact>
              )}
              <Fact label="Sender address">
                {t.sender_address}@
                <Text span c="dimmed">
                  campaign domain
                </Text>
              </Fact>
            </SimpleGrid>
            {!custom && (
              <Text size="sm" c="dimmed">
                Built-in templates cannot be changed: clone this one to adapt it.
              </Text>
            )}
          </Stack>
        </Card>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <PageSection title="Preview">
              <ErrorAlert
                error={preview.error}
                title="Could not render the preview"
                fieldLabels={FORM_FIELDS.template.names}
              />
              <Text size="sm" c="dimmed">
                As Alex Morgan, a sample employee, would receive it. Links and forms do nothing here.
              </Text>
              <TemplatePreviewPanel
                preview={preview.data}
                flags={t.red_flags}
                updating={preview.isFetching}
              />
            </PageSection>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <PageSection title="Red flags">
              <Text size="sm" c="dimmed">
                What in this email should have raised suspicion.
              </Text>
              <RedFlagList flags={t.red_flags} marked={preview.data?.teachable?.flags.map((f) => f.marked)} />
            </PageSection>
          </Grid.Col>
        </Grid>
      </Stack>
      <DeleteTemplateDialog
        template={t}
        opened={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => navigate(accountPath(account.id, 'phishing', 'templates'), { replace: true })}
      />
    </>
  );
}
