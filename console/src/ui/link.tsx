import type { ReactNode } from 'react';
import { hrefOf, navigate, type Route } from '../router.ts';

/** An anchor that navigates inside the console without reloading (a reload would sign the reviewer out). */
export function Link({ to, children, className, ariaCurrent }: { to: Route; children: ReactNode; className?: string; ariaCurrent?: boolean }) {
  return (
    <a
      href={hrefOf(to)}
      className={className}
      aria-current={ariaCurrent ? 'page' : undefined}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
