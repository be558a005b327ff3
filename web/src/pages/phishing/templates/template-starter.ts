// What a new template starts with: a short, valid example to change, so the preview shows at once.
import type { TemplateDraft } from './template-types';

export const STARTER_TEMPLATE: TemplateDraft = {
  name: '',
  summary: '',
  subject: 'Action needed: confirm your details for {{company}}',
  sender_name: '{{company}} IT Service Desk',
  sender_address: 'it-servicedesk',
  html: `<!doctype html>
<html>
<body style="font-family: Arial, sans-serif; color: #222;">
  <p>Hello {{first_name}},</p>
  <p>We are updating our records. Please confirm your details by the end of today.</p>
  <p><a href="{{link}}">Confirm my details</a></p>
  <p>Thank you,<br>{{sender_name}}</p>
</body>
</html>
`,
  text: `Hello {{first_name}},

We are updating our records. Please confirm your details by the end of today.

Confirm my details: {{link}}

Thank you,
{{sender_name}}
`,
  landing_html: `<title>Sign in</title>
<style>
  body { font-family: Arial, sans-serif; background: #f3f4f6; display: flex; justify-content: center; padding: 48px 16px; }
  form { background: white; padding: 24px; border-radius: 8px; width: 100%; max-width: 320px; }
  input { display: block; width: 100%; margin: 8px 0 16px; padding: 8px; box-sizing: border-box; }
</style>
<form>
  <h1>Sign in</h1>
  <label>Email <input name="email" value="{{email}}"></label>
  <label>Password <input name="password" type="password"></label>
  <button type="submit">Continue</button>
</form>
`,
  difficulty: 2,
  category: 'credential_harvest',
  language: 'en',
  red_flags: [
    {
      text: 'A deadline of "the end of today" is there to rush you.',
      part: 'body',
      quote: 'by the end of today',
    },
    {
      text: 'Your details are already known to IT; confirming them through a link is how accounts are stolen.',
      part: 'link',
      quote: 'Confirm my details',
    },
  ],
};
