import { escape as escapeXml } from 'html-escaper';
import { addinPaths, REPORT_BUTTON } from './addin.model.js';

/**
 * The Outlook add-in's two manifests, for one account: the add-in-only XML manifest (every Outlook
 * client; Microsoft 365 admin center → Integrated apps → "Office Add-in") and the unified manifest
 * for Microsoft 365 (a Teams app manifest with `extensions`, uploaded as a .zip with its icons).
 * Both show a "Report phishing" button on a message being read; it opens the task pane at
 * PUBLIC_URL with the account's report key in its address.
 */

export interface ManifestProps {
  /** The add-in's id: the same for an account on this server every time (addinIdOf). */
  id: string;
  /** PUBLIC_URL (a path of its own kept). */
  base: string;
  /** The report key the task pane sends reports with. */
  key: string;
}

/** Bumped when the manifests change in a way Outlook must see (it updates a deployed add-in). */
export const ADDIN_VERSION = '1.0.0';

/**
 * Mailbox requirement sets: the button itself needs 1.3 (add-in commands); reading the headers
 * needs 1.8 (getAllInternetHeadersAsync); the whole message, 1.14 (getAsFileAsync, used when the
 * client has it). 1.8 is what the add-in asks for.
 */
export const MAILBOX_COMMANDS = '1.3';
export const MAILBOX_NEEDED = '1.8';

function origin(base: string): string {
  return new URL(base).origin;
}

/** The add-in-only XML manifest (OfficeApp, MailApp, VersionOverrides 1.0 holding 1.1). */
export function xmlManifest({ id, base, key }: ManifestProps): string {
  const paths = addinPaths(base, key);
  const x = escapeXml;
  const images = ([16, 32, 80] as const)
    .map((size) => `<bt:Image id="Icon.${size}" DefaultValue="${x(paths.icon(size))}"/>`)
    .join('\n          ');
  const commands = (overrides: '1.0' | '1.1') => `
      <Requirements>
        <bt:Sets DefaultMinVersion="${overrides === '1.1' ? MAILBOX_NEEDED : MAILBOX_COMMANDS}">
          <bt:Set Name="Mailbox"/>
        </bt:Sets>
      </Requirements>
      <Hosts>
        <Host xsi:type="MailHost">
          <DesktopFormFactor>
            <ExtensionPoint xsi:type="MessageReadCommandSurface">
              <OfficeTab id="TabDefault">
                <Group id="VigilReportGroup">
                  <Label resid="Group.Label"/>
                  <Control xsi:type="Button" id="VigilReportButton">
                    <Label resid="Button.Label"/>
                    <Supertip>
                      <Title resid="Button.Label"/>
                      <Description resid="Button.Tooltip"/>
                    </Supertip>
                    <Icon>
                      <bt:Image size="16" resid="Icon.16"/>
                      <bt:Image size="32" resid="Icon.32"/>
                      <bt:Image size="80" resid="Icon.80"/>
                    </Icon>
                    <Action xsi:type="ShowTaskpane">
                      <SourceLocation resid="Taskpane.Url"/>
                    </Action>
                  </Control>
                </Group>
              </OfficeTab>
            </ExtensionPoint>
          </DesktopFormFactor>
        </Host>
      </Hosts>
      <Resources>
        <bt:Images>
          ${images}
        </bt:Images>
        <bt:Urls>
          <bt:Url id="Taskpane.Url" DefaultValue="${x(paths.taskpane)}"/>
        </bt:Urls>
        <bt:ShortStrings>
          <bt:String id="Group.Label" DefaultValue="Vigil"/>
          <bt:String id="Button.Label" DefaultValue="${x(REPORT_BUTTON.label)}"/>
        </bt:ShortStrings>
        <bt:LongStrings>
          <bt:String id="Button.Tooltip" DefaultValue="${x(REPORT_BUTTON.tooltip)}"/>
        </bt:LongStrings>
      </Resources>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<OfficeApp xmlns="http://schemas.microsoft.com/office/appforoffice/1.1"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:bt="http://schemas.microsoft.com/office/officeappbasictypes/1.0"
  xmlns:mailappor="http://schemas.microsoft.com/office/mailappversionoverrides/1.0"
  xsi:type="MailApp">
  <Id>${x(id)}</Id>
  <Version>${ADDIN_VERSION}.0</Version>
  <ProviderName>Vigil</ProviderName>
  <DefaultLocale>en-US</DefaultLocale>
  <DisplayName DefaultValue="${x(REPORT_BUTTON.name)}"/>
  <Description DefaultValue="${x(REPORT_BUTTON.description)}"/>
  <IconUrl DefaultValue="${x(paths.icon(64))}"/>
  <HighResolutionIconUrl DefaultValue="${x(paths.icon(128))}"/>
  <SupportUrl DefaultValue="${x(base)}"/>
  <AppDomains>
    <AppDomain>${x(origin(base))}</AppDomain>
  </AppDomains>
  <Hosts>
    <Host Name="Mailbox"/>
  </Hosts>
  <Requirements>
    <Sets>
      <Set Name="Mailbox" MinVersion="1.1"/>
    </Sets>
  </Requirements>
  <FormSettings>
    <Form xsi:type="ItemRead">
      <DesktopSettings>
        <SourceLocation DefaultValue="${x(paths.taskpane)}"/>
        <RequestedHeight>250</RequestedHeight>
      </DesktopSettings>
    </Form>
  </FormSettings>
  <Permissions>ReadWriteMailbox</Permissions>
  <Rule xsi:type="RuleCollection" Mode="Or">
    <Rule xsi:type="ItemIs" ItemType="Message" FormType="Read"/>
  </Rule>
  <DisableEntityHighlighting>true</DisableEntityHighlighting>
  <VersionOverrides xmlns="http://schemas.microsoft.com/office/mailappversionoverrides" xsi:type="VersionOverridesV1_0">${commands('1.0')}
    <VersionOverrides xmlns="http://schemas.microsoft.com/office/mailappversionoverrides/1.1" xsi:type="VersionOverridesV1_1">${commands('1.1').replaceAll('\n', '\n  ')}
    </VersionOverrides>
  </VersionOverrides>
</OfficeApp>
`;
}

/** The unified manifest's schema: the newest version @microsoft/app-manifest ships offline too. */
export const UNIFIED_MANIFEST_VERSION = '1.24';

/** The unified manifest's files in its package: the manifest names its two icons by these. */
export const PACKAGE_ICONS = { color: 'color.png', outline: 'outline.png' } as const;

/** The unified manifest for Microsoft 365 (manifest.json of the package). */
export function unifiedManifest({ id, base, key }: ManifestProps): Record<string, unknown> {
  const paths = addinPaths(base, key);
  const mailbox = (minVersion: string) => ({ capabilities: [{ name: 'Mailbox', minVersion }] });
  const icons = ([16, 32, 80] as const).map((size) => ({ size, url: paths.icon(size) }));
  return {
    $schema: `https://developer.microsoft.com/json-schemas/teams/v${UNIFIED_MANIFEST_VERSION}/MicrosoftTeams.schema.json`,
    manifestVersion: UNIFIED_MANIFEST_VERSION,
    version: ADDIN_VERSION,
    id,
    localizationInfo: { defaultLanguageTag: 'en-us' },
    developer: {
      name: 'Vigil',
      websiteUrl: base,
      privacyUrl: base,
      termsOfUseUrl: base,
    },
    name: { short: REPORT_BUTTON.name, full: `${REPORT_BUTTON.name} (Vigil)` },
    description: { short: REPORT_BUTTON.description, full: REPORT_BUTTON.longDescription },
    icons: { color: PACKAGE_ICONS.color, outline: PACKAGE_ICONS.outline },
    accentColor: '#4C6EF5',
    validDomains: [new URL(base).host],
    authorization: {
      permissions: {
        resourceSpecific: [{ name: 'Mailbox.ReadWrite.User', type: 'Delegated' }],
      },
    },
    extensions: [
      {
        requirements: { scopes: ['mail'], ...mailbox(MAILBOX_COMMANDS) },
        runtimes: [
          {
            requirements: mailbox(MAILBOX_NEEDED),
            id: 'TaskPaneRuntime',
            type: 'general',
            code: { page: paths.taskpane },
            lifetime: 'short',
            actions: [{ id: 'ShowReportPane', type: 'openPage', pinnable: false, view: 'dashboard' }],
          },
        ],
        ribbons: [
          {
            requirements: mailbox(MAILBOX_NEEDED),
            contexts: ['mailRead'],
            tabs: [
              {
                builtInTabId: 'TabDefault',
                groups: [
                  {
                    id: 'VigilReportGroup',
                    label: 'Vigil',
                    icons,
                    controls: [
                      {
                        id: 'VigilReportButton',
                        type: 'button',
                        label: REPORT_BUTTON.label,
                        icons,
                        supertip: { title: REPORT_BUTTON.label, description: REPORT_BUTTON.tooltip },
                        actionId: 'ShowReportPane',
                      },
                    ],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}
