import type { FastifyReply } from 'fastify';
import type { SignInFailure } from './failures.js';
import { LOGIN_PATH } from './service.js';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

// A page of its own, loading nothing, framed by nobody, and leaking no URL (a callback's code).
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/**
 * A sign-in that failed, answered to the browser as a plain page: what happened, what to do, the
 * error code (also in `data-error`, for pages and tests that read it), and the ways back.
 */
export function sendFailurePage(reply: FastifyReply, failure: SignInFailure): FastifyReply {
  const tryAgain =
    failure.code === 'oidc-disabled' || failure.code === 'bad-redirect'
      ? ''
      : `<a href="${LOGIN_PATH}">Try signing in again</a> · `;
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in failed · Flagpole</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}code{background:#f0f2f4;padding:0 .25rem;border-radius:3px}</style>
</head>
<body>
<main data-error="${escapeHtml(failure.code)}">
<h1>Sign-in failed</h1>
<p>${escapeHtml(failure.message)}</p>
<p>Error code: <code>${escapeHtml(failure.code)}</code></p>
<p>${tryAgain}<a href="/">Back to Flagpole</a></p>
</main>
</body>
</html>
`;
  return reply.status(failure.status).headers(PAGE_HEADERS).send(html);
}
