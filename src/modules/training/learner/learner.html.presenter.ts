import { escape as escapeHtml } from 'html-escaper';

/**
 * HTML built from templates whose interpolated values are escaped: employee names, campaign
 * names, course titles and quiz text are written by people and may hold markup. Only SafeHtml
 * (another template, or rendered Markdown, which escapes raw HTML itself) goes in as is.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** A tagged template: `html\`<p>${name}</p>\`` escapes `name`; false, null and undefined render nothing. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i] as HtmlValue) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}
