/**
 * The few parts of Office.js (Microsoft's, loaded from its CDN by the task pane) that the
 * task pane uses, typed by hand from Microsoft's reference (Outlook, Mailbox requirement sets).
 * Not Vigil's API: those types are generated from the server's schemas.
 */
declare namespace Office {
  interface AsyncResult<T> {
    status: 'succeeded' | 'failed';
    value: T;
    error?: { name?: string; message: string; code?: number };
  }
  type Callback<T> = (result: AsyncResult<T>) => void;

  interface AttachmentDetails {
    name: string;
    contentType: string;
    size: number;
    isInline?: boolean;
  }

  interface MessageRead {
    itemId?: string;
    attachments?: AttachmentDetails[];
    body: { getAsync(coercionType: 'html' | 'text', callback: Callback<string>): void };
    /** Mailbox 1.8. */
    getAllInternetHeadersAsync?(callback: Callback<string>): void;
    /** Mailbox 1.14: the whole message, base64 EML. */
    getAsFileAsync?(callback: Callback<string>): void;
  }

  interface Mailbox {
    item: MessageRead | null;
    userProfile: { emailAddress: string; displayName?: string };
    /** Mailbox 1.0; needs ReadWriteMailbox; EWS (not in the new Outlook on Windows). */
    makeEwsRequestAsync?(data: string, callback: Callback<string>): void;
  }

  const context: { mailbox: Mailbox };
  function onReady(
    callback?: (info: { host: string | null; platform: string | null }) => void,
  ): Promise<unknown>;
}
