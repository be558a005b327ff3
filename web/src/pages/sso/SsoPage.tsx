import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  PasswordInput,
  Group as Row,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { API_BASE, api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { components } from '../../api/generated/admin-api';
import { CopyButton } from '../../components/CopyButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { fieldError } from '../../components/form-errors';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { SaveForm } from '../../components/SaveForm';
import { useAccount } from '../../layout/account-context';

type Settings = components['schemas']['SsoSettings'];
type Connection = components['schemas']['SsoConnection'];

const ROLES = [
  { value: 'administrator', label: 'Administrator' },
  { value: 'campaign_manager', label: 'Campaign manager' },
  { value: 'triage_analyst', label: 'Triage analyst' },
  { value: 'auditor', label: 'Auditor' },
];

/** /a/:accountId/sso — the account's identity provider (OIDC or SAML) and who may sign in through it. */
export function SsoPage() {
  const account = useAccount();
  const settings = useQuery({
    queryKey: ['sso', account.id],
    queryFn: () =>
      call(api.GET('/accounts/{accountId}/sso', { params: { path: { accountId: account.id } } })),
  });
  return (
    <>
      <PageHeader
        title="Single sign-on"
        description="Let your administrators sign in through your identity provider (Okta, Microsoft Entra ID, Google, any OpenID Connect or SAML 2.0 provider). People from the allowed domains get an administrator account the first time they sign in."
      />
      {settings.isPending ? (
        <Loading />
      ) : settings.data ? (
        <Stack gap="lg" maw={820}>
          <ServiceProviderCard settings={settings.data} />
          <ConnectionForm key={settings.data.connection?.updated_at ?? 'new'} settings={settings.data} />
          <SignInRules settings={settings.data} />
        </Stack>
      ) : (
        <ErrorAlert error={settings.error} title="Could not load single sign-on" />
      )}
    </>
  );
}

function Copyable({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Row gap="xs" wrap="nowrap">
        <Code style={{ overflowWrap: 'anywhere', flex: 1 }}>{value}</Code>
        <CopyButton value={value} size="xs" variant="default" />
      </Row>
    </Stack>
  );
}

function ServiceProviderCard({ settings }: { settings: Settings }) {
  const account = useAccount();
  const sp = settings.service_provider;
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={3} size="h4">
          What to give your identity provider
        </Title>
        <Copyable label="OpenID Connect redirect URI" value={sp.oidc_redirect_uri} />
        <Copyable label="SAML entity ID (audience)" value={sp.saml_entity_id} />
        <Copyable label="SAML assertion consumer service URL" value={sp.saml_acs_url} />
        <Anchor href={`${API_BASE}/accounts/${account.id}/sso/saml-metadata`} size="sm">
          Download Vigil’s SAML metadata
        </Anchor>
        <Copyable label="Sign-in link for your administrators" value={sp.login_url} />
      </Stack>
    </Card>
  );
}

const mappingText = (c: Connection | null) =>
  (c?.role_mapping ?? []).map((m) => `${m.group} = ${m.role}`).join('\n');

function ConnectionForm({ settings }: { settings: Settings }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const c = settings.connection;
  const [protocol, setProtocol] = useState<'oidc' | 'saml'>(c?.protocol ?? 'oidc');
  const [enabled, setEnabled] = useState(c?.enabled ?? true);
  const [domains, setDomains] = useState((c?.allowed_domains ?? []).join(', '));
  const [groupsClaim, setGroupsClaim] = useState(c?.groups_claim ?? '');
  const [mapping, setMapping] = useState(mappingText(c));
  const [issuer, setIssuer] = useState(c?.oidc?.issuer ?? '');
  const [clientId, setClientId] = useState(c?.oidc?.client_id ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [acr, setAcr] = useState(c?.oidc?.acr_values ?? '');
  const [metadataUrl, setMetadataUrl] = useState('');
  const [metadataXml, setMetadataXml] = useState('');

  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/accounts/{accountId}/sso', {
          params: { path: { accountId: account.id } },
          body: {
            protocol,
            enabled,
            allowed_domains: domains
              .split(/[\s,]+/)
              .map((d) => d.trim())
              .filter(Boolean),
            groups_claim: groupsClaim.trim() || null,
            role_mapping: mapping
              .split('\n')
              .map((line) => line.trim())
              .filter(Boolean)
              .map((line) => {
                const at = line.lastIndexOf('=');
                return at === -1
                  ? { group: line, role: '' }
                  : { group: line.slice(0, at).trim(), role: line.slice(at + 1).trim() };
              }),
            ...(protocol === 'oidc'
              ? {
                  oidc: {
                    issuer: issuer.trim(),
                    client_id: clientId.trim(),
                    client_secret: clientSecret === '' ? null : clientSecret,
                    acr_values: acr.trim() || null,
                  },
                }
              : {
                  saml: {
                    metadata_xml: metadataXml.trim() || null,
                    metadata_url: metadataUrl.trim() || null,
                  },
                }),
          },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['sso', account.id] });
      notifications.show({ color: 'teal', message: 'Single sign-on saved' });
    },
  });
  const remove = useMutation({
    mutationFn: () =>
      call(api.DELETE('/accounts/{accountId}/sso', { params: { path: { accountId: account.id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['sso', account.id] });
      notifications.show({ color: 'teal', message: 'Single sign-on removed' });
    },
  });
  const err = (field: string) => fieldError(save.error, field);
  return (
    <SaveForm
      save={save}
      fields={[
        'protocol',
        'enabled',
        'allowed_domains',
        'groups_claim',
        'role_mapping',
        'oidc.issuer',
        'oidc.client_id',
        'oidc.client_secret',
        'oidc.acr_values',
        'saml.metadata_xml',
        'saml.metadata_url',
      ]}
      fieldLabels={FORM_FIELDS.sso.names}
      errorTitle="Could not save single sign-on"
      submitLabel="Save identity provider"
      onCancel={() => queryClient.invalidateQueries({ queryKey: ['sso', account.id] })}
    >
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Row justify="space-between">
            <Title order={3} size="h4">
              Identity provider
            </Title>
            {c && (
              <Badge color={c.enabled ? 'teal' : 'gray'} variant="light">
                {c.enabled ? 'Sign-in open' : 'Sign-in closed'}
              </Badge>
            )}
          </Row>
          <SegmentedControl
            aria-label="Protocol"
            value={protocol}
            onChange={(v) => setProtocol(v as 'oidc' | 'saml')}
            data={[
              { value: 'oidc', label: 'OpenID Connect' },
              { value: 'saml', label: 'SAML 2.0' },
            ]}
          />
          {protocol === 'oidc' ? (
            <>
              <TextInput
                label="Issuer URL"
                description="As your provider names it, e.g. https://example.okta.com or https://login.microsoftonline.com/<tenant>/v2.0"
                value={issuer}
                onChange={(e) => setIssuer(e.currentTarget.value)}
                error={err('oidc.issuer')}
                required
              />
              <TextInput
                label="Client ID"
                value={clientId}
                onChange={(e) => setClientId(e.currentTarget.value)}
                error={err('oidc.client_id')}
                required
              />
              <PasswordInput
                label="Client secret"
                description={
                  c?.oidc?.client_secret_set ? 'Stored encrypted. Leave empty to keep it.' : undefined
                }
                placeholder={c?.oidc?.client_secret_set ? 'Unchanged' : undefined}
                value={clientSecret}
                onChange={(e) => setClientSecret(e.currentTarget.value)}
                error={err('oidc.client_secret')}
                autoComplete="off"
              />
              <TextInput
                label="Authentication context (acr values)"
                description="Optional. Sent as they are, so your provider can require its own MFA (e.g. a phishing-resistant method)."
                value={acr}
                onChange={(e) => setAcr(e.currentTarget.value)}
                error={err('oidc.acr_values')}
              />
            </>
          ) : (
            <>
              {c?.saml && (
                <Alert variant="light" color="blue" title="Current IdP">
                  <Text size="sm">{c.saml.idp_entity_id}</Text>
                  {c.saml.idp_certificates.map((cert) => (
                    <Text size="xs" c="dimmed" key={cert.sha256}>
                      {cert.subject} · valid until {cert.not_after.slice(0, 10)} · SHA-256{' '}
                      {cert.sha256.slice(0, 23)}…
                    </Text>
                  ))}
                </Alert>
              )}
              <TextInput
                label="IdP metadata URL"
                description="Fetched once, when you save. Or paste the metadata below."
                value={metadataUrl}
                onChange={(e) => setMetadataUrl(e.currentTarget.value)}
                error={err('saml.metadata_url')}
              />
              <Textarea
                label="IdP metadata"
                description={
                  c?.saml
                    ? 'Leave both empty to keep the current metadata.'
                    : 'The XML document your provider gives.'
                }
                value={metadataXml}
                onChange={(e) => setMetadataXml(e.currentTarget.value)}
                error={err('saml.metadata_xml')}
                autosize
                minRows={3}
                maxRows={10}
                styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
              />
            </>
          )}
          <TextInput
            label="Allowed email domains"
            description="Only people whose verified address is in one of these domains may sign in, separated by commas."
            value={domains}
            onChange={(e) => setDomains(e.currentTarget.value)}
            error={err('allowed_domains')}
            required
          />
          <TextInput
            label="Groups claim or attribute"
            description="Optional. The ID token claim or SAML attribute that lists the person’s groups, e.g. groups."
            value={groupsClaim}
            onChange={(e) => setGroupsClaim(e.currentTarget.value)}
            error={err('groups_claim')}
          />
          <Textarea
            label="Group roles"
            description="One per line: group = role (administrator, campaign_manager, triage_analyst, auditor). The first group the person is in decides; no match: the default role below."
            value={mapping}
            onChange={(e) => setMapping(e.currentTarget.value)}
            error={err('role_mapping')}
            autosize
            minRows={2}
          />
          <Switch
            label="Sign-in open"
            description="Closed: nobody signs in through the provider (and SSO only is switched off)."
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
          />
          {c && (
            <Row>
              <Button variant="subtle" color="red" onClick={() => remove.mutate()} loading={remove.isPending}>
                Remove identity provider
              </Button>
            </Row>
          )}
          {remove.error ? <ErrorAlert error={remove.error} title="Could not remove it" /> : null}
        </Stack>
      </Card>
    </SaveForm>
  );
}

function SignInRules({ settings }: { settings: Settings }) {
  const account = useAccount();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['sso', account.id] });
  const change = useMutation({
    mutationFn: (body: { sso_only?: boolean; default_role?: string }) =>
      call(
        api.PUT('/accounts/{accountId}/sso/sign-in', { params: { path: { accountId: account.id } }, body }),
      ),
    onSuccess: refresh,
  });
  const breakGlass = useMutation({
    mutationFn: (input: { id: number; break_glass: boolean }) =>
      call(
        api.PUT('/accounts/{accountId}/sso/break-glass/{id}', {
          params: { path: { accountId: account.id, id: input.id } },
          body: { break_glass: input.break_glass },
        }),
      ),
    onSuccess: refresh,
  });
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={3} size="h4">
          Sign-in rules
        </Title>
        <ErrorAlert
          error={change.error ?? breakGlass.error}
          fieldLabels={FORM_FIELDS.ssoSignIn.names}
          title="Could not change it"
        />
        <Select
          label="Role of new administrators"
          description="Given to a person at their first sign-in through the provider when no group role matches."
          data={ROLES}
          value={settings.default_role}
          allowDeselect={false}
          onChange={(value) => value && change.mutate({ default_role: value })}
          w={320}
        />
        <Switch
          label="SSO only"
          description="Password sign-in and invitation links are refused for everyone but the break-glass owners below, who must have MFA."
          checked={settings.sso_only}
          onChange={(e) => change.mutate({ sso_only: e.currentTarget.checked })}
        />
        <Text size="sm" fw={500} mt="sm">
          Break-glass owners
        </Text>
        <Text size="sm" c="dimmed">
          Owners who may still sign in with their password (and their second factor) when the provider is
          down.
        </Text>
        <Table.ScrollContainer minWidth={420}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Owner</Table.Th>
                <Table.Th>MFA</Table.Th>
                <Table.Th>Break-glass</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {settings.owners.map((owner) => (
                <Table.Tr key={owner.id}>
                  <Table.Td>
                    <Text size="sm">{owner.name || owner.email}</Text>
                    {owner.name && (
                      <Text size="xs" c="dimmed">
                        {owner.email}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={owner.has_mfa ? 'teal' : 'gray'} variant="light">
                      {owner.has_mfa ? 'Enrolled' : 'None'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`Break-glass: ${owner.email}`}
                      checked={owner.break_glass}
                      onChange={(e) =>
                        breakGlass.mutate({ id: owner.id, break_glass: e.currentTarget.checked })
                      }
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </Card>
  );
}
