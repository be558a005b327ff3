export {
  type ComposedMail,
  type ComposeOptions,
  type DescribeOptions,
  type MailComposer,
  type MailToCompose,
  type MessageDescription,
  registerMailComposer,
} from './mail.composers.service.js';
export { MAIL_PRIORITY, queueCampaignMessages } from './mail.queue.commands.js';
export { messageIdFor, renderMail, trainingTitle } from './mail.templates.presenter.js';
export type { InlineImage, OutgoingMail } from './mail.transport.service.js';
