import { Typography } from '@mantine/core';
import MarkdownIt from 'markdown-it';
import { createElement, type ReactNode, useMemo } from 'react';
import classes from './lesson.module.css';

// The same parser and options as the server (src/modules/courses/markdown.ts): raw HTML stays
// text, unsafe link schemes are refused. The preview builds React elements from the tokens, so
// nothing is inserted as HTML; only the elements below can appear.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: true });

type Token = ReturnType<typeof markdown.parse>[number];

const TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'strong',
  'em',
  's',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'code',
  'pre',
  'hr',
  'br',
]);

function props(token: Token, key: string): Record<string, unknown> {
  const p: Record<string, unknown> = { key };
  const href = token.attrGet('href');
  if (token.tag === 'a' && href)
    Object.assign(p, { href, target: '_blank', rel: 'noopener noreferrer nofollow' });
  const start = token.attrGet('start');
  if (token.tag === 'ol' && start) p.start = Number(start);
  const style = token.attrGet('style');
  const align = style && /text-align:(left|right|center)/.exec(String(style))?.[1];
  if (align) p.style = { textAlign: align };
  return p;
}

/** Turns a flat token list (opening, closing and single tokens) into React nodes. */
function render(tokens: Token[], prefix = ''): ReactNode[] {
  const root: ReactNode[] = [];
  const stack: { token: Token; children: ReactNode[] }[] = [];
  const out = () => stack.at(-1)?.children ?? root;
  tokens.forEach((token, index) => {
    const key = `${prefix}${index}`;
    if (token.nesting === 1) {
      stack.push({ token, children: [] });
      return;
    }
    if (token.nesting === -1) {
      const open = stack.pop();
      if (!open) return;
      // Paragraphs inside tight lists are "hidden": their text goes straight into the item.
      if (open.token.hidden) out().push(...open.children);
      else
        out().push(
          createElement(
            TAGS.has(open.token.tag) ? open.token.tag : 'div',
            props(open.token, key),
            ...open.children,
          ),
        );
      return;
    }
    switch (token.type) {
      case 'inline':
        out().push(...render(token.children ?? [], `${key}.`));
        break;
      case 'text':
        out().push(token.content);
        break;
      case 'softbreak':
        out().push('\n');
        break;
      case 'hardbreak':
        out().push(createElement('br', { key }));
        break;
      case 'code_inline':
        out().push(createElement('code', { key }, token.content));
        break;
      case 'code_block':
      case 'fence':
        out().push(createElement('pre', { key }, createElement('code', null, token.content)));
        break;
      case 'hr':
        out().push(createElement('hr', { key }));
        break;
      case 'image':
        // Lessons have no images; show the description the author wrote.
        out().push(`[${token.content}]`);
        break;
      default:
        // html_block / html_inline cannot occur (html: false); anything else shows as text.
        if (token.content) out().push(token.content);
    }
  });
  return root;
}

/** A lesson's Markdown as the learner will see it, built without inserting any HTML. */
export function MarkdownPreview({ source }: { source: string }) {
  const nodes = useMemo(() => render(markdown.parse(source, {})), [source]);
  return <Typography className={classes.lesson}>{nodes}</Typography>;
}
