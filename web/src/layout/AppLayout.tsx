import { AppShell, Box, ScrollArea } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type ReactNode, useEffect } from 'react';
import { useLocation } from 'react-router';
import { Header } from './Header';
import classes from './layout.module.css';
import { NavLinks } from './NavLinks';

interface AppLayoutProps {
  /** The account whose pages the navigation links to, if any. */
  accountId: number | null;
  children: ReactNode;
}

/** Header, navigation (a burger menu on phones) and the main landmark of every signed-in page. */
export function AppLayout({ accountId, children }: AppLayoutProps) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();

  // On phones the navigation closes once a link was followed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every path change
  useEffect(close, [location.pathname]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'md', sm: 'lg' }}
    >
      <a href="#main" className={classes.skipLink}>
        Skip to main content
      </a>
      <AppShell.Header>
        <Header accountId={accountId} navOpened={opened} onToggleNav={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main navigation">
        <AppShell.Section grow component={ScrollArea}>
          <NavLinks accountId={accountId} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} className={classes.main}>
        <Box maw={1200} mx="auto">
          {children}
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
