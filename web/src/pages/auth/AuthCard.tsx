import { Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { type ReactNode, useEffect } from 'react';

/** The centred card of the signed-out pages (sign-in, setup, invitation). */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Vigil administration`;
  }, [title]);

  return (
    <Center component="main" mih="100dvh" p="md" bg="gray.0">
      <Stack w="100%" maw={420} gap="lg">
        <Group gap="xs" justify="center" aria-hidden>
          <IconShieldCheck size={32} color="var(--mantine-primary-color-filled)" />
          <Text fw={700} size="xl">
            Vigil
          </Text>
        </Group>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Title order={1} size="h3" mb="md">
            {title}
          </Title>
          {children}
        </Paper>
      </Stack>
    </Center>
  );
}
