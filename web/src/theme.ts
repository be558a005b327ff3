import { type CSSVariablesResolver, createTheme, DEFAULT_THEME } from '@mantine/core';

/** One look for every page: Mantine's defaults with an indigo accent and system fonts only. */
export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 8: white on indigo and indigo on white both pass WCAG AA (4.5:1) for small text.
  primaryShade: 8,
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  headings: { fontWeight: '650' },
  components: {
    // A badge is never narrower than its words: a phone's table squeezing its column must not
    // cut "Active" to "A…" (the table scrolls sideways instead).
    Badge: { defaultProps: { radius: 'sm' }, styles: { root: { minWidth: 'max-content', flexShrink: 0 } } },
    Modal: { defaultProps: { centered: true, closeButtonProps: { 'aria-label': 'Close' } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
    // Fields are required unless marked "Optional"; no asterisk, so a label's text is exactly
    // its name ("Email", not "Email *") for people and for getByLabel alike.
    TextInput: { defaultProps: { withAsterisk: false } },
    Textarea: { defaultProps: { withAsterisk: false } },
    NumberInput: { defaultProps: { withAsterisk: false } },
    Select: { defaultProps: { withAsterisk: false } },
    // Its default name "Toggle password visibility" would make getByLabel('Password') ambiguous.
    PasswordInput: {
      defaultProps: {
        withAsterisk: false,
        visibilityToggleButtonProps: { 'aria-label': 'Show or hide characters' },
      },
    },
  },
});

/** Text on the pale "light" backgrounds (badges, alerts, light buttons), dark enough for 4.5:1. */
const LIGHT_TEXT: Record<string, string> = {
  red: '#a61e1e',
  cyan: '#0a6472',
  teal: '#066649',
  orange: '#a8400a',
  yellow: '#7a5000',
  green: '#1b6e30',
  lime: '#3d6b0a',
};

/**
 * Contrast: Mantine's "dimmed" grey, and shade 9 on shade 1 (its "light" variant) for several
 * hues, are below WCAG AA for small text; these variables use darker tones of the same hues.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': DEFAULT_THEME.colors.red[9],
  };
  for (const [name, shades] of Object.entries(DEFAULT_THEME.colors)) {
    light[`--mantine-color-${name}-light-color`] = LIGHT_TEXT[name] ?? shades[9];
  }
  light['--mantine-primary-color-light-color'] = DEFAULT_THEME.colors.indigo[9];
  return { variables: {}, light, dark: {} };
};
