import { useEffect } from 'react';

/** Runs `reset` each time a dialog opens (and when `deps` change while it is open). */
export function useOnOpen(opened: boolean, reset: () => void, deps: unknown[] = []) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs each time the dialog opens
  useEffect(() => {
    if (opened) reset();
  }, [opened, ...deps]);
}
