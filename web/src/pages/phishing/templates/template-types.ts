// Names for the phishing template types, generated from the admin API's schemas.
import type { components, paths } from '../../../api/generated/admin-api';

type Schemas = components['schemas'];

export type PhishingTemplate = Schemas['PhishingTemplate'];
export type PhishingTemplateSummary = Schemas['PhishingTemplateSummary'];
export type TemplatePreview = Schemas['PhishingTemplatePreview'];
export type RedFlag = Schemas['PhishingRedFlag'];
export type RedFlagPart = RedFlag['part'];
export type TemplateCategory = PhishingTemplate['category'];
export type TemplateInput = NonNullable<
  paths['/accounts/{accountId}/phishing/templates']['post']['requestBody']
>['content']['application/json'];

/** What the editor holds: the API's input, with whole red flags. */
export type TemplateDraft = Omit<TemplateInput, 'red_flags' | 'summary'> & {
  summary: string;
  red_flags: RedFlag[];
};

/** The library list's filters and page. */
export type TemplateQuery = NonNullable<
  paths['/accounts/{accountId}/phishing/templates']['get']['parameters']['query']
>;
