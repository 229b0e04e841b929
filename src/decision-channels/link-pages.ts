/**
 * The pages an email decision link answers with (pure HTML): the confirm page with its one form, the result,
 * and a page for each reason a link does nothing, saying what to do next. Self-contained: one inline style
 * (allowed by its hash in the Content-Security-Policy), no script, no image, nothing fetched from elsewhere.
 */
import { createHash } from 'node:crypto';
import { ERROR_CATALOGUE } from '../errors.ts';
import { MAX_REASON_LENGTH, type LinkConfirm, type LinkResult } from './email-decisions.ts';

const STYLE = [
  'body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}',
  'h1{font-size:1.4rem}dt{font-weight:600}dd{margin:0 0 .6rem 0}',
  'pre{background:#f4f4f4;padding:.8rem;overflow:auto;max-height:24rem;white-space:pre-wrap;word-break:break-all}',
  'code{word-break:break-all}.blocking{color:#a00000}.problem{background:#fff0f0;border:1px solid #a00000;padding:.6rem}',
  'textarea{width:100%;min-height:6rem}button{font-size:1rem;padding:.5rem 1.4rem;margin-top:.8rem}',
].join('');

/**
 * Every answer of the link routes: never cached or indexed, never framed (a decision is one click), the form
 * may post only here, and the token in the URL is never sent on as a Referer.
 */
export const LINK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': [
    "default-src 'none'",
    `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-robots-tag': 'noindex, nofollow',
};

export interface LinkPage {
  status: number;
  html: string;
}

/** Where the pages send a person: the review's card, or the console's start when the link named no review we trust. */
export interface PageLinks {
  console: string;
  review: string | null;
}

export function renderLinkPage(result: LinkResult, links: PageLinks): LinkPage {
  const open = links.review ? `<p><a href="${attr(links.review)}">Open the review in the console</a></p>` : `<p><a href="${attr(links.console)}">Open the reviewer console</a></p>`;
  const next = (text: string) => `<p>${esc(text)}</p>${open}`;
  switch (result.kind) {
    case 'confirm':
      return { status: result.problem ? 400 : 200, html: page(result.claims.action === 'approve' ? 'Approve this review?' : 'Reject this review?', confirmBody(result) + open) };
    case 'decided':
      if (result.route === 'await_quorum') return { status: 200, html: page('Approval counted', `<p>${esc(`Your approval (${result.by}) is counted; the review needs more approvals before the run goes on.`)}</p>${open}`) };
      return { status: 200, html: page(result.action === 'approve' ? 'Approved' : 'Rejected', `<p>${esc(`${result.action === 'approve' ? 'Approved' : 'Rejected'} by ${result.by}. The decision is in the audit trail.`)}</p>${open}`) };
    case 'lost':
      return { status: 409, html: page('Someone decided first', next(`Nothing was changed: this review was already ${result.winner}.`)) };
    case 'refused': {
      const status = (ERROR_CATALOGUE as Record<string, { status: number }>)[result.code]?.status ?? 409;
      return { status, html: page('Nothing was decided', next(`Nothing was decided: ${result.why}.`)) };
    }
    case 'invalid':
      return { status: 400, html: page('This link does not work', next(`This is not a decision link this server made: ${result.why}. Nothing was decided. Decide in the console, or copy the whole link from the email again.`)) };
    case 'expired':
      return { status: 410, html: page('This link has expired', next(`Decision links stop working after a while; this one did at ${result.at.toISOString()}. Nothing was decided. Decide in the console.`)) };
    case 'unknown_person':
      return { status: 403, html: page('This link does not work', next('The person this link was sent to is no longer a reviewer here. Nothing was decided. Decide in the console with your own key.')) };
    case 'used': {
      const now = result.now ? ` The review was ${result.now}.` : '';
      return { status: 409, html: page('This link was already used', next(`Each decision link works once. This one was used at ${result.usedAt.toISOString()} by ${result.by}, to ${result.action}.${now} Nothing was changed now.`)) };
    }
    case 'ended':
      return { status: 409, html: page('This review is closed', next(`Nothing was changed: this review was already ${result.how}.`)) };
    case 'changed':
      return { status: 409, html: page('The payload changed', next('The payload changed since this email was sent, so this link no longer decides it. Open the review in the console to see the new payload and decide there.')) };
    case 'not_found':
      return { status: 404, html: page('No such review', next('This server has no such review (it may have been purged). Nothing was decided.')) };
    case 'forbidden':
      return { status: 403, html: page('You may not decide this review', next(`Nothing was decided: ${result.why}.`)) };
  }
}

/** An error that is not the link's (the database is away): a page too, not a JSON problem. */
export function unavailablePage(status: number, links: PageLinks): LinkPage {
  return { status, html: page('Try again in a moment', `<p>The server could not finish this (status ${status}). Nothing was decided; the link still works. Try again shortly, or decide in the console.</p><p><a href="${attr(links.console)}">Open the reviewer console</a></p>`) };
}

function confirmBody(view: LinkConfirm): string {
  const approve = view.claims.action === 'approve';
  const facts: [string, string][] = [
    ['Model', view.model ?? 'not chosen yet'],
    ['Checkpoint', view.checkpoint.replace(/_/g, ' ')],
    ['Why it waits', `${view.reason.replace(/_/g, ' ')}${view.summary ? ` (${view.summary})` : ''}`],
    ['Question', view.question],
    ['Expires at', view.expiresAt],
    ['You decide as', `${view.person.name} (${view.person.role})`],
  ];
  const issues = view.issues.length === 0
    ? '<p>No issues.</p>'
    : `<ul>${view.issues.map((issue) => `<li class="${issue.severity === 'blocking' ? 'blocking' : ''}"><strong>${esc(issue.severity)}</strong> ${esc(issue.path)}: ${esc(issue.message)}${issue.suggestion ? ` (${esc(issue.suggestion)})` : ''}</li>`).join('')}</ul>`;
  const payload = JSON.stringify(view.payload, null, 2) ?? 'null';
  const shown = payload.length > 20_000 ? `${payload.slice(0, 20_000)}\n… (cut here; the console shows all of it)` : payload;
  const parts = [
    view.problem ? `<p class="problem">${esc(view.problem)}</p>` : '',
    `<dl>${facts.map(([term, value]) => `<dt>${esc(term)}</dt><dd>${esc(value)}</dd>`).join('')}</dl>`,
    '<h2>Issues</h2>', issues,
    '<h2>Payload</h2>', `<pre>${esc(shown)}</pre>`,
    `<p>Payload hash: <code>${esc(view.claims.payloadHash)}</code>. The decision is bound to it: if the payload changes, it is refused.</p>`,
    view.claimedBy ? `<p class="problem">${esc(view.claimedBy)} is working on this review; a decision is refused until their claim ends.</p>` : '',
  ];
  if (approve && !view.canApprove) {
    parts.push('<p class="problem">The payload has blocking issues, so it cannot be approved from a link. Fix or override them in the console.</p>');
    return parts.join('');
  }
  const reason = approve ? '' : `<p><label for="reason">Why do you reject it? (the audit trail keeps it)</label><br><textarea id="reason" name="reason" required maxlength="${MAX_REASON_LENGTH}"></textarea></p>`;
  parts.push(`<form method="post"><input type="hidden" name="token" value="${attr(view.token)}">${reason}<button type="submit">${approve ? 'Approve' : 'Reject'}</button></form>`);
  parts.push('<p>Nothing is decided until you press the button. The link works once.</p>');
  return parts.join('');
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><title>${esc(title)} · Vetted</title><style>${STYLE}</style></head><body><h1>${esc(title)}</h1>${body}</body></html>`;
}

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const attr = esc;
