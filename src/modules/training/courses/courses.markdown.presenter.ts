import MarkdownIt from 'markdown-it';

/**
 * Lesson text is Markdown, rendered to HTML on the server. Raw HTML in the source is shown as
 * text, never passed through, and markdown-it refuses `javascript:`, `vbscript:`, `file:` and
 * `data:` links, so a course written by an administrator cannot script the learner's page.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: true });

// Links leave the learner page in a new tab and tell the target nothing about it.
const defaultLinkOpen =
  markdown.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
markdown.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  token?.attrSet('target', '_blank');
  token?.attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen(tokens, idx, options, env, self);
};

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
