import { Divider, NavLink, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconBook,
  IconBuildingSkyscraper,
  IconFishHook,
  IconFlag,
  IconHistory,
  IconHome,
  IconKey,
  IconMail,
  IconMailExclamation,
  IconPlugConnected,
  IconSchool,
  IconSettings,
  IconUserShield,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { can, isScoped, useCurrentUser } from '../auth/session';
import { AccountSwitcher } from './AccountSwitcher';
import { accountPath } from './account-context';

interface Item {
  label: string;
  to: string;
  icon: ReactNode;
  /** Active only on exactly this path (the overview), not below it. */
  exact?: boolean;
  /** The permission the section needs (docs/roles.md): hidden from a role without it. */
  permission: string;
  /** The section acts on the whole account: hidden from a role limited to groups (docs/roles.md). */
  accountWide?: boolean;
}

function accountItems(accountId: number): Item[] {
  const icon = (Icon: typeof IconHome) => <Icon size={18} stroke={1.6} aria-hidden />;
  return [
    {
      label: 'Overview',
      to: accountPath(accountId),
      icon: icon(IconHome),
      exact: true,
      permission: 'overview:read',
    },
    {
      label: 'Employees',
      to: accountPath(accountId, 'employees'),
      icon: icon(IconUsers),
      permission: 'directory:read',
    },
    {
      label: 'Groups',
      to: accountPath(accountId, 'groups'),
      icon: icon(IconUsersGroup),
      permission: 'directory:read',
    },
    {
      label: 'Campaigns',
      to: accountPath(accountId, 'campaigns'),
      icon: icon(IconSchool),
      permission: 'training:read',
    },
    {
      label: 'Courses',
      to: accountPath(accountId, 'courses'),
      icon: icon(IconBook),
      permission: 'training:read',
    },
    {
      label: 'Phishing',
      to: accountPath(accountId, 'phishing'),
      icon: icon(IconFishHook),
      permission: 'phishing:read',
    },
    {
      label: 'Phishing templates',
      to: accountPath(accountId, 'phishing', 'templates'),
      icon: icon(IconMailExclamation),
      permission: 'phishing:read',
    },
    {
      label: 'Reports',
      to: accountPath(accountId, 'reports'),
      icon: icon(IconFlag),
      permission: 'reports:read',
    },
    { label: 'Outbox', to: accountPath(accountId, 'outbox'), icon: icon(IconMail), permission: 'mail:read' },
    {
      label: 'Integrations',
      to: accountPath(accountId, 'integration'),
      icon: icon(IconPlugConnected),
      permission: 'integrations:read',
    },
    {
      label: 'Administrators',
      to: accountPath(accountId, 'admins'),
      icon: icon(IconUserShield),
      permission: 'admins:read',
    },
    {
      label: 'Single sign-on',
      to: accountPath(accountId, 'sso'),
      icon: icon(IconKey),
      permission: 'security:write',
    },
    {
      label: 'Audit log',
      to: accountPath(accountId, 'audit-log'),
      icon: icon(IconHistory),
      permission: 'audit:read',
    },
    {
      label: 'Settings',
      to: accountPath(accountId, 'settings'),
      icon: icon(IconSettings),
      permission: 'account:read',
      accountWide: true,
    },
  ];
}

/** The sections of the current account, and for operators the list of all accounts. */
export function NavLinks({ accountId }: { accountId: number | null }) {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const narrow = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const isOperator = user.role === 'operator';

  const matches = (item: Item) =>
    item.exact ? pathname === item.to : pathname === item.to || pathname.startsWith(`${item.to}/`);
  // The most specific section is the current one: /phishing/templates is Phishing templates, not Phishing.
  const current =
    accountId === null
      ? undefined
      : accountItems(accountId)
          .filter(matches)
          .sort((a, b) => b.to.length - a.to.length)[0];
  const link = (item: Item) => {
    const active =
      matches(item) && (current === undefined || current.to === item.to || !item.to.startsWith('/a/'));
    return (
      <NavLink
        key={item.to}
        component={Link}
        to={item.to}
        label={item.label}
        leftSection={item.icon}
        active={active}
        aria-current={active ? 'page' : undefined}
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
      />
    );
  };

  return (
    <Stack gap={4}>
      {isOperator && (
        <>
          {link({
            label: 'All accounts',
            to: '/accounts',
            icon: <IconBuildingSkyscraper size={18} stroke={1.6} aria-hidden />,
            permission: 'operator',
          })}
          {narrow && <AccountSwitcher accountId={accountId} />}
          {accountId !== null && <Divider my="xs" />}
        </>
      )}
      {accountId !== null && (
        <>
          {isOperator && (
            <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pt={4}>
              This account
            </Text>
          )}
          {accountItems(accountId)
            .filter((item) => can(user, item.permission) && !(item.accountWide && isScoped(user)))
            .map(link)}
        </>
      )}
    </Stack>
  );
}
