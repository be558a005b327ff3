import { useState } from 'react';

/** A dialog about one object: its state and how to open it about one. */
export interface Dialog<T> {
  /** The object it is (or was last) about. */
  target: T | null;
  opened: boolean;
  open: (value: T) => void;
  close: () => void;
}

/**
 * A dialog about one object (the employee to delete, the key to revoke). Closing keeps the
 * object, so the dialog's text does not go blank while it fades out.
 */
export function useDialog<T>(): Dialog<T> {
  const [target, setTarget] = useState<T | null>(null);
  const [opened, setOpened] = useState(false);
  return {
    target,
    opened,
    open: (value: T) => {
      setTarget(value);
      setOpened(true);
    },
    close: () => setOpened(false),
  };
}
