import { Anchor, Button, Card, Group, Pagination, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch, IconSettings } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api, call } from '../../../api/client';
import { useLimits } from '../../../api/limits';
import { AddButton } from '../../../components/AddButton';
import { EmptyState } from '../../../components/EmptyState';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { FilterSelect } from '../../../components/FilterSelect';
import { plural } from '../../../components/format';
import { Loading } from '../../../components/Loading';
import { useClampPage, useListFilter, useListState } from '../../../components/list-state';
import { PageHeader } from '../../../components/PageHeader';
import { accountPath, useAccount } from '../../../layout/account-context';
import { TemplateBadges } from './TemplateBadges';
import { categoryLabel, difficultyLabel } from './template-format';
import type { PhishingTemplateSummary, TemplateQuery } from './template-types';

const PAGE_SIZE = 24;

/** /a/:accountId/phishing/templates — the built-in library and the account's own templates. */
export function TemplatesPage() {
  const account = useAccount();
  const navigate = useNavigate();
  const limits = useLimits();
  const list = useListState(PAGE_SIZE);
  const [difficulty, setDifficulty] = useListFilter(list.setPage);
  const [category, setCategory] = useListFilter(list.setPage);
  const [source, setSource] = useListFilter(list.setPage);
  const query: TemplateQuery = {
    difficulty: difficulty ? Number(difficulty) : undefined,
    category: (category || undefined) as TemplateQuery['category'],
    source: (source || undefined) as TemplateQuery['source'],
    q: list.query || undefined,
    page: list.page,
    page_size: PAGE_SIZE,
  };
  const templates = useQuery({
    queryKey: ['phishing-templates', account.id, query],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/phishing/templates', {
          params: { path: { accountId: account.id }, query },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  useClampPage(templates.data, list.page, PAGE_SIZE, list.setPage);
  const pages = Math.max(1, Math.ceil((templates.data?.count ?? 0) / PAGE_SIZE));
  const path = (t: PhishingTemplateSummary) => accountPath(account.id, 'phishing', 'templates', t.key);

  return (
    <>
      <PageHeader
        title="Phishing templates"
        description="Simulated phishing emails with their landing pages and red flags: the built-in library and your own."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconSettings size={16} aria-hidden />}
              component={Link}
              to={accountPath(account.id, 'phishing', 'settings')}
            >
              Settings
            </Button>
            <AddButton onClick={() => navigate(accountPath(account.id, 'phishing', 'templates', 'new'))}>
              New template
            </AddButton>
          </>
        }
      />
      <Stack>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm">
          <TextInput
            label="Search"
            placeholder="Name, summary or subject"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={list.search}
            onChange={(e) => list.setSearch(e.currentTarget.value)}
          />
          <FilterSelect
            label="Difficulty"
            allLabel="Any difficulty"
            options={[1, 2, 3, 4, 5].map((d) => ({ value: String(d), label: difficultyLabel(d) }))}
            value={difficulty}
            onChange={setDifficulty}
          />
          <FilterSelect
            label="Category"
            allLabel="Any category"
            options={limits.phishing_template.categories.map((c) => ({ value: c, label: categoryLabel(c) }))}
            value={category}
            onChange={setCategory}
          />
          <FilterSelect
            label="Source"
            allLabel="Built-in and custom"
            options={[
              { value: 'builtin', label: 'Built-in' },
              { value: 'custom', label: 'Custom' },
            ]}
            value={source}
            onChange={setSource}
          />
        </SimpleGrid>
        <ErrorAlert error={templates.error} title="Could not load the templates" />
        {templates.isPending ? (
          <Loading label="Loading the templates" />
        ) : templates.data && templates.data.count === 0 ? (
          <EmptyState title="No templates match">
            Change the filters, or create a template of your own.
          </EmptyState>
        ) : (
          <>
            <Text size="sm" c="dimmed" aria-live="polite">
              {plural(templates.data?.count ?? 0, 'template')}
            </Text>
            <SimpleGrid
              cols={{ base: 1, sm: 2, lg: 3 }}
              spacing="md"
              component="ul"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-label="Templates"
            >
              {(templates.data?.results ?? []).map((t) => (
                <Card key={t.key} withBorder padding="md" component="li">
                  <Stack gap="xs" h="100%">
                    <Anchor component={Link} to={path(t)} fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {t.name}
                    </Anchor>
                    <TemplateBadges difficulty={t.difficulty} category={t.category} source={t.source} />
                    <Text size="sm" c="dimmed" lineClamp={3}>
                      {t.summary || t.subject}
                    </Text>
                    <Text size="xs" c="dimmed" mt="auto" lineClamp={1} title={t.subject}>
                      Subject: {t.subject}
                    </Text>
                  </Stack>
                </Card>
              ))}
            </SimpleGrid>
            {pages > 1 && (
              <Group justify="center">
                <Pagination total={pages} value={list.page} onChange={list.setPage} aria-label="Pages" />
              </Group>
            )}
          </>
        )}
      </Stack>
    </>
  );
}
