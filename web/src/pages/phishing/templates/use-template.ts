import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call } from '../../../api/client';
import type { RedFlagPart, TemplateDraft, TemplateInput } from './template-types';

/** One template of the account (built-in or own), by key. */
export function useTemplate(accountId: number, key: string | undefined) {
  return useQuery({
    queryKey: ['phishing-template', accountId, key],
    queryFn: () =>
      call(
        api.GET('/accounts/{accountId}/phishing/templates/{templateKey}', {
          params: { path: { accountId, templateKey: key ?? '' } },
        }),
      ),
    enabled: key !== undefined,
  });
}

/** The rendered preview of a template as written (saved or not); `input` null asks nothing. */
export function usePreview(accountId: number, input: Partial<TemplateInput> | null) {
  return useQuery({
    queryKey: ['phishing-preview', accountId, input],
    queryFn: () =>
      call(
        api.POST('/accounts/{accountId}/phishing/templates/preview', {
          params: { path: { accountId } },
          body: input ?? {},
        }),
      ),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** A template's fields as the API takes them (what the editor and a preview send). */
export function inputOf(t: TemplateInput): TemplateDraft {
  return {
    name: t.name,
    summary: t.summary ?? '',
    subject: t.subject,
    sender_name: t.sender_name,
    sender_address: t.sender_address,
    html: t.html,
    text: t.text,
    landing_html: t.landing_html,
    difficulty: t.difficulty,
    category: t.category,
    language: t.language,
    red_flags: t.red_flags.map((f) => ({
      text: f.text ?? '',
      part: (f.part ?? 'body') as RedFlagPart,
      quote: f.quote ?? '',
    })),
  };
}
