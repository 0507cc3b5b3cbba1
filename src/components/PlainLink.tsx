import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from "react";

/** Where a plain link goes: the portal's router inside the portal; on the light home, the hand-over to the portal. */
export type Navigate = (to: string) => void;

/**
 * A link without the router (the light home has none): a real link (a new tab, a copied address and a screen reader all see its href); a plain click goes
 * through `navigate` instead of a page load.
 */
export function PlainLink({
  to,
  navigate,
  children,
  ...attributes
}: { to: string; navigate: Navigate; children: ReactNode } & Omit<
  AnchorHTMLAttributes<HTMLAnchorElement>,
  "href" | "onClick"
>) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} {...attributes}>
      {children}
    </a>
  );
}
