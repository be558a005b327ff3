/**
 * The Outlook add-in's task pane (served as /addins/outlook/addin.js, built by web/build.mjs):
 * when the employee presses "Report phishing", it reads the message they are reading through
 * Office.js and reports it to Vigil's Customer API with the report key of its own address, then
 * says what happened. A simulation is moved to Deleted Items. Every text is plain and announced
 * (the status line is `role=status`, an error `role=alert`). See docs/outlook-add-in.md.
 */

interface ReportAnswer {
  outcome: 'simulation' | 'real';
  report_id: number | null;
  message: string;
}

interface AttachmentMeta {
  name: string;
  content_type: string;
  size: number;
}

type ReportBody =
  | { reporter: string; eml: string }
  | { reporter: string; internet_headers: string; html: string; text: string; attachments: AttachmentMeta[] };

const main = document.getElementById('vigil-report') as HTMLElement;
const statusLine = document.getElementById('status') as HTMLElement;
const alertLine = document.getElementById('alert') as HTMLElement;
const retry = document.getElementById('retry') as HTMLButtonElement;

const TEXT = {
  reading: 'Reading this message…',
  sending: 'Reporting this message to your security team…',
  unreachable:
    'Vigil could not be reached, so the message was not reported. Check your connection and try again.',
  revoked: 'This report button is no longer active; tell your IT team.',
  notFound: (address: string) =>
    `Vigil does not know your address (${address}), so the message was not reported. Tell your IT team.`,
  tooMany: (seconds: number | null) =>
    seconds === null
      ? 'Too many reports were sent just now. Try again in a minute.'
      : `Too many reports were sent just now. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  tooLarge: 'This message is too large to report with the button. Forward it to your IT team instead.',
  serverError: (status: number) =>
    `Vigil had a problem (error ${status}) and the message was not reported. Try again in a few minutes.`,
  refused: (status: number) => `Vigil refused the report (error ${status}). Tell your IT team.`,
  unreadable: 'Outlook did not let the add-in read this message, so it was not reported.',
  noItem: 'Open a message first, then press “Report phishing”.',
  moved: 'It has been moved to Deleted Items.',
  notMoved: 'Outlook did not let the add-in delete the message: you can delete it yourself.',
};

function say(text: string, outcome?: string): void {
  alertLine.hidden = true;
  alertLine.textContent = '';
  statusLine.textContent = text;
  if (outcome) statusLine.dataset.outcome = outcome;
  else delete statusLine.dataset.outcome;
}

function fail(text: string, canRetry: boolean): void {
  statusLine.textContent = '';
  delete statusLine.dataset.outcome;
  alertLine.textContent = text;
  alertLine.hidden = false;
  retry.hidden = !canRetry;
}

/** An Office.js callback API as a promise (rejects with its error). */
function officeCall<T>(call: (callback: Office.Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    call((result) => {
      if (result.status === 'succeeded') resolve(result.value);
      else reject(new Error(result.error?.message ?? 'Office.js call failed'));
    });
  });
}

/** The whole message (Mailbox 1.14), else its headers, bodies and attachments' names (1.8). */
async function readMessage(item: Office.MessageRead, reporter: string): Promise<ReportBody[]> {
  const attempts: ReportBody[] = [];
  if (typeof item.getAsFileAsync === 'function') {
    try {
      const eml = await officeCall<string>((cb) => item.getAsFileAsync?.(cb));
      if (eml) attempts.push({ reporter, eml });
    } catch {
      // Not this client, or not this item: the parts below.
    }
  }
  try {
    const [headers, html, text] = await Promise.all([
      typeof item.getAllInternetHeadersAsync === 'function'
        ? officeCall<string>((cb) => item.getAllInternetHeadersAsync?.(cb))
        : Promise.resolve(''),
      officeCall<string>((cb) => item.body.getAsync('html', cb)),
      officeCall<string>((cb) => item.body.getAsync('text', cb)),
    ]);
    attempts.push({
      reporter,
      internet_headers: headers,
      html,
      text,
      attachments: (item.attachments ?? []).map((a) => ({
        name: a.name,
        content_type: a.contentType,
        size: a.size,
      })),
    });
  } catch (err) {
    // A whole message read above is still reported.
    if (attempts.length === 0) throw err;
  }
  return attempts;
}

/** Moves the item to Deleted Items through EWS (the only way Office.js offers a task pane). */
async function moveToDeletedItems(itemId: string | undefined): Promise<boolean> {
  const mailbox = Office.context.mailbox;
  if (!itemId || typeof mailbox.makeEwsRequestAsync !== 'function') return false;
  const id = itemId.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const request = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:m="http://schemas.microsoft.com/exchange/services/2006/messages" xmlns:t="http://schemas.microsoft.com/exchange/services/2006/types">
  <soap:Header><t:RequestServerVersion Version="Exchange2013"/></soap:Header>
  <soap:Body>
    <m:MoveItem>
      <m:ToFolderId><t:DistinguishedFolderId Id="deleteditems"/></m:ToFolderId>
      <m:ItemIds><t:ItemId Id="${id}"/></m:ItemIds>
    </m:MoveItem>
  </soap:Body>
</soap:Envelope>`;
  try {
    const answer = await officeCall<string>((cb) => mailbox.makeEwsRequestAsync?.(request, cb));
    return answer.includes('ResponseClass="Success"');
  } catch {
    return false;
  }
}

function retryAfter(response: Response): number | null {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : null;
}

async function errorCode(response: Response): Promise<string | undefined> {
  try {
    return ((await response.json()) as { code?: string }).code;
  } catch {
    return undefined;
  }
}

async function report(): Promise<void> {
  retry.hidden = true;
  const key = new URLSearchParams(window.location.search).get('key') ?? '';
  const endpoint = main.dataset.endpoint ?? '';
  const mailbox = Office.context.mailbox;
  const item = mailbox.item;
  if (!item) return fail(TEXT.noItem, false);
  const reporter = mailbox.userProfile.emailAddress;
  say(TEXT.reading);
  let attempts: ReportBody[];
  try {
    attempts = await readMessage(item, reporter);
  } catch {
    return fail(TEXT.unreadable, true);
  }
  say(TEXT.sending);
  for (let i = 0; i < attempts.length; i++) {
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { apiKey: key, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(attempts[i]),
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
      });
    } catch {
      return fail(TEXT.unreachable, true);
    }
    // A whole message too large for Vigil: its headers and bodies alone may not be.
    if (response.status === 413 && i + 1 < attempts.length) continue;
    if (response.status === 202 || response.status === 200) {
      const answer = (await response.json()) as ReportAnswer;
      say(answer.message, answer.outcome);
      // A simulation goes to Deleted Items; the pane says which happened.
      if (answer.outcome === 'simulation') {
        const moved = await moveToDeletedItems(item.itemId);
        say(`${answer.message} ${moved ? TEXT.moved : TEXT.notMoved}`, answer.outcome);
      }
      return;
    }
    if (response.status === 401 || response.status === 403) return fail(TEXT.revoked, false);
    if (response.status === 404 && (await errorCode(response)) === 'reporter_not_found') {
      return fail(TEXT.notFound(reporter), false);
    }
    if (response.status === 429) return fail(TEXT.tooMany(retryAfter(response)), true);
    if (response.status === 413) return fail(TEXT.tooLarge, false);
    if (response.status >= 500) return fail(TEXT.serverError(response.status), true);
    return fail(TEXT.refused(response.status), false);
  }
}

retry.addEventListener('click', () => void report());
Office.onReady(() => void report());

// A module: its names stay its own (esbuild wraps it in a function all the same).
export {};
