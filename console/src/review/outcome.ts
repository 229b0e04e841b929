/** What the banner says after a decision, from the route the API answered. */
export function outcomeText(route: string | undefined, action: string): string {
  switch (route) {
    case 'execute': return 'Approved. Thank you: the run goes on to execute.';
    case 'validate': return 'Edits saved. Thank you: the payload is being validated again with your values.';
    case 'build': return 'Thank you: the run goes back to build.';
    case 'extract': return 'Model changed. Thank you: the run is built again for the new model.';
    case 'complete': return 'Accepted. Thank you: the run is complete.';
    case 'cancel': return 'Rejected. Thank you: the run is cancelled, with your reason.';
    case 'await_quorum': return 'Your approval is counted. Thank you: the review waits for the other approvals.';
    default: return `Thank you: your ${action} was recorded.`;
  }
}
