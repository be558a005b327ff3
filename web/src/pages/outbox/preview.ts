// The document the outbox's preview frame shows for a message's HTML body.

/**
 * What goes at the start of the preview's <head>: every link opens in a new tab (followed inside
 * the frame, a learner link would open the learner's pages in the dialog), and no page the link
 * opens learns the admin page as its referrer.
 */
const PREVIEW_HEAD = '<base target="_blank"><meta name="referrer" content="no-referrer">';

/**
 * The message's HTML with PREVIEW_HEAD first in its head: after `<head>`, or else after the
 * doctype (the parser then opens the head itself). The first <base> with a target wins, so one
 * in the message cannot undo it.
 */
export function previewDocument(html: string): string {
  const head = /<head(?:\s[^>]*)?>/i.exec(html);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const at = head ? head.index + head[0].length : doctype ? doctype[0].length : 0;
  return html.slice(0, at) + PREVIEW_HEAD + html.slice(at);
}
