/**
 * Single-key shortcuts (j, k, x, enter, a, e, r, ?) and the dialog that lists them. Keys typed into a field are
 * the field's: shortcuts only act when focus is not in an input, a select or a text area.
 */
import { useEffect, useRef } from 'react';

export type KeyMap = Record<string, (event: KeyboardEvent) => void>;

function typingInto(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function useKeys(map: KeyMap, enabled = true): void {
  const current = useRef(map);
  current.current = map;
  useEffect(() => {
    if (!enabled) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey || typingInto(event.target)) return;
      if (document.querySelector('dialog[open]') && event.key !== '?') return;
      const action = current.current[event.key];
      if (!action) return;
      event.preventDefault();
      action(event);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}

export const SHORTCUTS: [string, string][] = [
  ['j / k', 'next / previous review in the queue'],
  ['x', 'tick or untick the selected review for the bulk bar (queue)'],
  ['Enter', 'open the selected review (claims it for you)'],
  ['a', 'approve (on a card; in the queue, opens the review ready to approve)'],
  ['e', 'edit: jump to the payload form'],
  ['r', 'reject: jump to the reason'],
  ['?', 'show or hide these keys'],
];

/** The task list's keys: tasks have no claim and need notes for either decision, so only moving and opening. */
export const TASK_SHORTCUTS: [string, string][] = [
  ['j / k', 'next / previous task in the list'],
  ['Enter', 'open the selected task'],
  ['?', 'show or hide these keys'],
];

/** The list of shortcuts, in a modal dialog that returns focus where it was. */
export function KeysDialog({ open, onClose, shortcuts = SHORTCUTS }: { open: boolean; onClose: () => void; shortcuts?: [string, string][] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog ref={dialog} className="keys-dialog" aria-labelledby="keys-title" onClose={onClose}>
      <h2 id="keys-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {shortcuts.map(([key, what]) => (
            <tr key={key}><th scope="row"><kbd>{key}</kbd></th><td>{what}</td></tr>
          ))}
        </tbody>
      </table>
      <form method="dialog"><button type="submit" className="button-primary">Close</button></form>
    </dialog>
  );
}
