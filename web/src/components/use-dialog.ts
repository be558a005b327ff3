import { useState } from 'react';

/**
 * A dialog about one object (the employee to delete, the key to revoke). Closing keeps the
 * object, so the dialog's text does not go blank while it fades out.
 */
export function useDialog<T>() {
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
