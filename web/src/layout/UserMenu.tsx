import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconDevices, IconKey, IconLogout, IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { signOut, useCurrentUser, useRefreshSession } from '../auth/session';
import { ChangePasswordModal } from './ChangePasswordModal';

/** The signed-in user's name and role, "Change password", "Your sessions" and "Sign out". */
export function UserMenu() {
  const user = useCurrentUser();
  const refresh = useRefreshSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [changing, setChanging] = useState(false);
  const shown = user.name || user.email;

  const leave = async () => {
    setBusy(true);
    try {
      await signOut();
    } finally {
      // Even if the call failed the session may be gone: read it again either way.
      await refresh().catch(() => undefined);
      navigate('/sign-in', { replace: true });
    }
  };

  return (
    <>
      <Menu position="bottom-end" width={240} shadow="md" withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <UnstyledButton aria-label="User menu" p={4} style={{ borderRadius: 'var(--mantine-radius-md)' }}>
            <Group gap={6} wrap="nowrap">
              <Avatar size="sm" color="indigo" name={shown} aria-hidden />
              <Text size="sm" fw={500} visibleFrom="md" maw={160} truncate>
                {shown}
              </Text>
              <IconChevronDown size={14} aria-hidden />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        {/* No Menu.Divider nor focus placeholder: role=presentation is not allowed in role=menu (axe). */}
        <Menu.Dropdown>
          <Menu.Label>
            <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
              {shown}
            </Text>
            {user.name && (
              <Text size="xs" truncate>
                {user.email}
              </Text>
            )}
            <Text size="xs">{user.role === 'operator' ? 'Operator' : 'Account administrator'}</Text>
          </Menu.Label>
          <Menu.Item leftSection={<IconKey size={16} aria-hidden />} onClick={() => setChanging(true)}>
            Change password
          </Menu.Item>
          <Menu.Item
            leftSection={<IconDevices size={16} aria-hidden />}
            onClick={() => navigate('/sessions')}
          >
            Your sessions
          </Menu.Item>
          <Menu.Item
            leftSection={<IconShieldLock size={16} aria-hidden />}
            onClick={() => navigate('/security')}
          >
            Sign-in security
          </Menu.Item>
          <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} onClick={leave} disabled={busy}>
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ChangePasswordModal opened={changing} onClose={() => setChanging(false)} />
    </>
  );
}
