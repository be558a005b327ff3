import { escape as escapeHtml } from 'html-escaper';
import { REFUSALS, type RefusalReason } from './sso.model.js';

/** The page a refused single sign-on shows: what went wrong, and the way back to sign-in. */
export function refusalPage(reason: RefusalReason, signInPath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in refused · Vigil</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f8f9fa;color:#212529}
main{max-width:32rem;margin:10vh auto;padding:2rem;background:#fff;border:1px solid #dee2e6;border-radius:8px}
h1{font-size:1.4rem;margin:0 0 1rem}
p{line-height:1.5}
a{color:#1864ab}
code{font-size:.85rem;color:#495057}
</style>
</head>
<body>
<main>
<h1>Sign-in refused</h1>
<p id="reason">${escapeHtml(REFUSALS[reason])}</p>
<p><code>Reason: ${escapeHtml(reason)}</code></p>
<p><a href="${escapeHtml(signInPath)}">Back to sign-in</a></p>
</main>
</body>
</html>
`;
}
