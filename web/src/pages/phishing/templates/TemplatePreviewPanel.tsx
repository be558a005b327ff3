import {
  Badge,
  Box,
  Card,
  Group,
  Loader,
  ScrollArea,
  SegmentedControl,
  Stack,
  Tabs,
  Text,
  ThemeIcon,
} from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile, IconFlag } from '@tabler/icons-react';
import { useState } from 'react';
import { emailDocument, landingDocument, teachableDocument } from './preview-documents';
import { PART_LABELS } from './template-format';
import type { RedFlag, TemplatePreview } from './template-types';

type Width = 'desktop' | 'phone';
const FRAME = {
  desktop: { width: '100%', height: 560 },
  phone: { width: 390, height: 700 },
} as const;

/**
 * A sandboxed frame: `sandbox=""` grants nothing (no scripts, forms, popups, same-origin
 * access or navigation of the app), and the document comes through srcdoc, so an account's
 * markup never runs in the app's origin.
 */
function Frame({ title, doc, width }: { title: string; doc: string; width: Width }) {
  const size = FRAME[width];
  return (
    <Box
      bg="gray.1"
      p={width === 'phone' ? 'md' : 0}
      style={{ borderRadius: 'var(--mantine-radius-md)', display: 'flex', justifyContent: 'center' }}
    >
      <iframe
        title={title}
        sandbox=""
        referrerPolicy="no-referrer"
        srcDoc={doc}
        style={{
          width: size.width,
          maxWidth: '100%',
          height: size.height,
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: width === 'phone' ? 24 : 'var(--mantine-radius-md)',
          background: 'white',
          display: 'block',
        }}
      />
    </Box>
  );
}

function Unavailable({ what }: { what: string }) {
  return (
    <Text c="dimmed" size="sm" py="lg" ta="center">
      The {what} cannot be shown until its errors are corrected.
    </Text>
  );
}

/** The red flags in their order, numbered as the marks of the teachable copy. */
export function RedFlagList({ flags, marked }: { flags: RedFlag[]; marked?: boolean[] | undefined }) {
  return (
    <Stack gap="xs" component="ol" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Red flags">
      {flags.map((flag, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a read-only list in the template's order
        <Card key={i} withBorder padding="sm" component="li">
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon size={26} radius="xl" color="orange.8" aria-hidden>
              <Text size="xs" fw={700} c="white">
                {i + 1}
              </Text>
            </ThemeIcon>
            <Stack gap={4} style={{ minWidth: 0 }}>
              <Text size="sm">{flag.text}</Text>
              <Group gap={6}>
                <Badge size="sm" variant="light" color="gray">
                  {PART_LABELS[flag.part] ?? flag.part}
                </Badge>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  “{flag.quote}”
                </Text>
                {marked && marked[i] === false && (
                  <Badge size="sm" variant="light" color="red">
                    Not found in the message
                  </Badge>
                )}
              </Group>
            </Stack>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

interface TemplatePreviewPanelProps {
  preview: TemplatePreview | undefined;
  /** The flags as written (shown when the template has errors and no teachable copy). */
  flags: RedFlag[];
  /** A new preview is on its way (the editor, while typing). */
  updating?: boolean;
}

/** The email, its plain text, the landing page and the red flags, as desktop or phone. */
export function TemplatePreviewPanel({ preview, flags, updating }: TemplatePreviewPanelProps) {
  const [width, setWidth] = useState<Width>('desktop');
  const email = preview?.email;
  const from =
    email?.sender_name != null
      ? `${email.sender_name} <${email.sender_address ?? '…'}>`
      : (email?.sender_address ?? '—');

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs">
        <SegmentedControl
          aria-label="Preview width"
          value={width}
          onChange={(v) => setWidth(v as Width)}
          data={[
            {
              value: 'desktop',
              label: (
                <Group gap={6} wrap="nowrap">
                  <IconDeviceDesktop size={16} aria-hidden /> Desktop
                </Group>
              ),
            },
            {
              value: 'phone',
              label: (
                <Group gap={6} wrap="nowrap">
                  <IconDeviceMobile size={16} aria-hidden /> Phone
                </Group>
              ),
            },
          ]}
        />
        {updating && (
          <Group gap={6}>
            <Loader size="xs" />
            <Text size="xs" c="dimmed">
              Updating preview
            </Text>
          </Group>
        )}
      </Group>
      <Tabs defaultValue="email" variant="outline" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="email">Email</Tabs.Tab>
          <Tabs.Tab value="text">Plain text</Tabs.Tab>
          <Tabs.Tab value="landing">Landing page</Tabs.Tab>
          <Tabs.Tab value="flags" leftSection={<IconFlag size={14} aria-hidden />}>
            Red flags ({flags.length})
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="email" pt="sm">
          <Stack gap="xs">
            <Box component="dl" m={0}>
              <Group gap="xs" wrap="nowrap">
                <Text component="dt" size="sm" c="dimmed" w={64} style={{ flexShrink: 0 }}>
                  From
                </Text>
                <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {from}
                </Text>
              </Group>
              <Group gap="xs" wrap="nowrap">
                <Text component="dt" size="sm" c="dimmed" w={64} style={{ flexShrink: 0 }}>
                  Subject
                </Text>
                <Text component="dd" m={0} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {email?.subject ?? '—'}
                </Text>
              </Group>
            </Box>
            {email?.html != null ? (
              <Frame title="Email preview" doc={emailDocument(email.html)} width={width} />
            ) : (
              <Unavailable what="HTML body" />
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="text" pt="sm">
          {email?.text != null ? (
            <ScrollArea.Autosize mah={560} type="auto">
              <Box
                component="pre"
                m={0}
                p="sm"
                maw={width === 'phone' ? 390 : undefined}
                mx={width === 'phone' ? 'auto' : undefined}
                style={{
                  whiteSpace: 'pre-wrap',
                  overflowWrap: 'anywhere',
                  fontSize: 'var(--mantine-font-size-sm)',
                  background: 'var(--mantine-color-gray-0)',
                  borderRadius: 'var(--mantine-radius-md)',
                }}
              >
                {email.text}
              </Box>
            </ScrollArea.Autosize>
          ) : (
            <Unavailable what="text body" />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="landing" pt="sm">
          {preview?.landing_html != null ? (
            <Frame title="Landing page preview" doc={landingDocument(preview.landing_html)} width={width} />
          ) : (
            <Unavailable what="landing page" />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="flags" pt="sm">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              After a click, people see the email with these marked and explained.
            </Text>
            <RedFlagList flags={flags} marked={preview?.teachable?.flags.map((f) => f.marked)} />
            {preview?.teachable ? (
              <Frame
                title="Email with red flags marked"
                doc={teachableDocument(preview.teachable)}
                width={width}
              />
            ) : (
              <Unavailable what="marked copy" />
            )}
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
