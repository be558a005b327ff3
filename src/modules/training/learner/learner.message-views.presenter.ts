import { html } from './learner.html.presenter.js';
import { learnerPage } from './learner.layout.presenter.js';
import type { LearnerPaths } from './learner.paths.model.js';

/** Pages that explain why there is no training to show: bad or expired link, ended campaign, errors. */

export function invalidLinkPage(): string {
  return learnerPage(
    'Link not valid',
    html`
<h1>This link is not valid</h1>
<p>Please check that you opened the whole link from your training email; some email programs break long links across lines.</p>
<p>If it still does not work, ask your IT or security team for help.</p>`,
  );
}

export function pageNotFoundPage(paths: LearnerPaths | null): string {
  return learnerPage(
    'Page not found',
    html`
<h1>Page not found</h1>
<p>This page is not part of your training.</p>
${paths && html`<div class="actions"><a class="button" href="${paths.overview}">Go to your courses</a></div>`}`,
  );
}

export function linkExpiredPage(paths: LearnerPaths): string {
  return learnerPage(
    'Link expired',
    html`
<h1>This link has expired</h1>
<p>For your security, training links only work for a limited time. We can email you a new one.</p>
<form method="post" action="${paths.newLink}"><div class="actions"><button class="button" type="submit">Email me a new link</button></div></form>`,
  );
}

/** After asking for a new link: `queued` now, or `recent` when one went out minutes ago. */
export function newLinkSentPage(outcome: 'queued' | 'recent', intervalMinutes: number): string {
  const body =
    outcome === 'queued'
      ? html`
<h1>Check your email</h1>
<div class="notice ok"><p>A new link is on its way to your work email. It can take a few minutes to arrive.</p></div>
<p>Open the training from the new email; this old link will not work again.</p>`
      : html`
<h1>Check your email</h1>
<div class="notice ok"><p>A new link was just sent to your work email, so we have not sent another one.</p></div>
<p>It can take a few minutes to arrive; check your junk folder too. If nothing comes, you can ask again after ${intervalMinutes} minutes.</p>`;
  return learnerPage('New link sent', body);
}

export function trainingEndedPage(paths: LearnerPaths | null, completed: boolean): string {
  return learnerPage(
    'Training ended',
    html`
<h1>This training has ended</h1>
<p>The campaign this link belongs to is no longer running, so there is nothing more to do here.</p>
${
  completed && paths
    ? html`<p>You completed it. <a href="${paths.done}">See your completion</a></p>`
    : html`<p>If you think this is a mistake, ask your IT or security team.</p>`
}`,
  );
}

export function errorPage(status: number, message: string): string {
  const text =
    status >= 500
      ? 'Something went wrong on our side. Please try again in a moment.'
      : 'Something about that request was not right. Please go back and try again.';
  return learnerPage(
    status >= 500 ? 'Something went wrong' : message,
    html`
<h1>${status >= 500 ? 'Something went wrong' : message}</h1>
<p>${text}</p>`,
  );
}
