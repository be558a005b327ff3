import { Button, Checkbox, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client';
import { FORM_FIELDS } from '../../api/form-fields';
import type { WebhookEndpoint, WebhookSettings } from '../../api/types';
import { CopyButton } from '../../components/CopyButton';
import { fieldError } from '../../components/form-errors';
import { SaveForm } from '../../components/SaveForm';
import { SecretField, SecretShownOnce } from '../../components/SecretShownOnce';
import { useOnOpen } from '../../components/use-on-open';

interface Props {
  accountId: number;
  /** The endpoint to edit, `new` to create one, null when closed. */
  endpoint: WebhookEndpoint | 'new' | null;
  eventTypes: WebhookSettings['event_types'];
  allowHttp: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/** The signing secret, shown after a create or a rotation (or when revealed). */
function SecretBox({ secret, note }: { secret: string; note: string }) {
  return (
    <Stack gap="xs">
      <SecretField label="Signing secret" secret={secret} />
      <Group justify="space-between">
        <CopyButton value={secret} />
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      </Group>
    </Stack>
  );
}

/** "New Endpoint" and "Edit": URL, description, event filter; rotating and revealing the secret. */
export function WebhookEndpointModal({
  accountId,
  endpoint,
  eventTypes,
  allowHttp,
  onClose,
  onSaved,
}: Props) {
  const opened = endpoint !== null;
  const editing = endpoint !== null && endpoint !== 'new' ? endpoint : null;
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [all, setAll] = useState(true);
  const [types, setTypes] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const body = () => ({ url: url.trim(), description, event_types: all ? null : types });
  const save = useMutation({
    mutationFn: async () => {
      if (editing) {
        await call(
          api.PATCH('/accounts/{accountId}/webhooks/endpoints/{id}', {
            params: { path: { accountId, id: editing.id } },
            body: body(),
          }),
        );
        return null;
      }
      return call(
        api.POST('/accounts/{accountId}/webhooks/endpoints', {
          params: { path: { accountId } },
          body: body(),
        }),
      );
    },
    onSuccess: (created) => {
      onSaved();
      if (created) setSecret(created.secret);
      else onClose();
    },
  });
  const rotate = useMutation({
    mutationFn: (id: number) =>
      call(
        api.POST('/accounts/{accountId}/webhooks/endpoints/{id}/rotate-secret', {
          params: { path: { accountId, id } },
        }),
      ),
    onSuccess: (rotated) => {
      onSaved();
      setSecret(rotated.secret);
    },
  });
  const reveal = useMutation({
    mutationFn: (id: number) =>
      call(
        api.GET('/accounts/{accountId}/webhooks/endpoints/{id}/secret', {
          params: { path: { accountId, id } },
        }),
      ),
    onSuccess: (shown) => setSecret(shown.secret),
  });

  useOnOpen(opened, () => {
    setUrl(editing?.url ?? '');
    setDescription(editing?.description ?? '');
    setAll(!editing || editing.event_types === null);
    setTypes(editing?.event_types ?? []);
    setSecret(null);
    save.reset();
    rotate.reset();
    reveal.reset();
  });

  if (secret && !editing) {
    return (
      <SecretShownOnce
        opened={opened}
        onClose={onClose}
        title="Your new webhook endpoint"
        warning={{
          title: 'Copy the secret now',
          text: 'Your receiver verifies each delivery’s signature with it. An administrator can reveal it later.',
        }}
        label="Signing secret"
        secret={secret}
      >
        <Text size="xs" c="dimmed">
          whsec_ + base64, as Standard Webhooks libraries expect
        </Text>
      </SecretShownOnce>
    );
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? 'Edit webhook endpoint' : 'New webhook endpoint'}
      size="lg"
    >
      <SaveForm
        fieldLabels={FORM_FIELDS.webhookEndpoint.names}
        save={save}
        onSubmit={() => save.mutate()}
        fields={['url', 'description', 'event_types']}
        onCancel={onClose}
        submitLabel={editing ? 'Save' : 'Create Endpoint'}
      >
        <TextInput
          label="URL"
          description={allowHttp ? 'Where events are POSTed' : 'Where events are POSTed (https)'}
          placeholder="https://hr.example.com/vigil/webhooks"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={fieldError(save.error, 'url')}
          required
        />
        <Textarea
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={fieldError(save.error, 'description')}
          autosize
          minRows={1}
        />
        <Checkbox label="All events" checked={all} onChange={(e) => setAll(e.currentTarget.checked)} />
        {!all && (
          <Checkbox.Group
            label="Events"
            value={types}
            onChange={setTypes}
            error={fieldError(save.error, 'event_types')}
          >
            <Stack gap={4} mt="xs">
              {eventTypes.map((t) => (
                <Checkbox key={t.type} value={t.type} label={t.type} description={t.description} />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
      </SaveForm>
      {editing && (
        <Stack mt="lg" gap="xs">
          {secret ? (
            <SecretBox secret={secret} note="Deliveries are signed with it" />
          ) : (
            <Group>
              <Button variant="default" loading={reveal.isPending} onClick={() => reveal.mutate(editing.id)}>
                Reveal Secret
              </Button>
              <Button variant="default" loading={rotate.isPending} onClick={() => rotate.mutate(editing.id)}>
                Rotate Secret
              </Button>
            </Group>
          )}
          <Text size="xs" c="dimmed">
            After a rotation, deliveries carry both signatures for 24 hours, so your receiver can switch
            without missing one.
          </Text>
        </Stack>
      )}
    </Modal>
  );
}
