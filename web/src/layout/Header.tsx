import { Burger, Button, Group, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlugConnected, IconShieldCheck } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { can, useCurrentUser } from '../auth/session';
import { AccountSwitcher } from './AccountSwitcher';
import { accountPath } from './account-context';
import classes from './layout.module.css';
import { UserMenu } from './UserMenu';

interface HeaderProps {
  accountId: number | null;
  navOpened: boolean;
  onToggleNav: () => void;
}

/**
 * Brand, account switcher (operators, wide screens), the Integration button and the user menu.
 * "Integration" is a button (not a link) so that it has one accessible name the navbar link lacks.
 */
export function Header({ accountId, navOpened, onToggleNav }: HeaderProps) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  const home = user.role === 'operator' ? '/accounts' : accountPath(user.account_id ?? 0);

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <Burger
          opened={navOpened}
          onClick={onToggleNav}
          hiddenFrom="sm"
          size="sm"
          aria-label={navOpened ? 'Close navigation' : 'Open navigation'}
          aria-expanded={navOpened}
        />
        <Group
          gap={6}
          wrap="nowrap"
          className={classes.brand}
          renderRoot={(props) => <Link to={home} {...props} />}
        >
          <IconShieldCheck size={26} color="var(--mantine-primary-color-filled)" aria-hidden />
          <Text fw={700} size="lg">
            Vigil
          </Text>
          <Text size="sm" c="dimmed" visibleFrom="md">
            administration
          </Text>
        </Group>
        {wide && user.role === 'operator' && <AccountSwitcher accountId={accountId} />}
      </Group>
      <Group gap="xs" wrap="nowrap">
        {/* Hidden like the Integrations section: from a role without it, or limited to groups (docs/roles.md). */}
        {accountId !== null && can(user, 'integrations:read') && (
          <Button
            onClick={() => navigate(accountPath(accountId, 'integration'))}
            variant="light"
            leftSection={<IconPlugConnected size={18} aria-hidden />}
            size={wide ? 'sm' : 'xs'}
          >
            Integration
          </Button>
        )}
        <UserMenu />
      </Group>
    </Group>
  );
}
