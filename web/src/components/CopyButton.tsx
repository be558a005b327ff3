import { Button, type ButtonProps } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

/** Copies text to the clipboard, also where the Clipboard API is missing (plain http). */
async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const done = document.execCommand('copy');
  area.remove();
  if (!done) throw new Error('copy refused');
}

interface CopyButtonProps extends Omit<ButtonProps, 'children' | 'onClick'> {
  value: string;
}

/** A "Copy" button that says "Copied" for a moment (or "Copy failed": select the text by hand). */
export function CopyButton({ value, ...props }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);

  return (
    <Button
      variant={state === 'copied' ? 'filled' : 'light'}
      color={state === 'copied' ? 'teal.9' : state === 'failed' ? 'red.9' : undefined}
      leftSection={state === 'copied' ? <IconCheck size={16} /> : <IconCopy size={16} />}
      onClick={() =>
        copyText(value).then(
          () => setState('copied'),
          () => setState('failed'),
        )
      }
      {...props}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </Button>
  );
}
