import { createContext, useContext, useMemo, useState, type ReactNode } from "react";

interface LayoutState {
  /** The phone's menu drawer. */
  mobileMenuOpen: boolean;
  setMobileMenuOpen: (open: boolean) => void;
}

const LayoutContext = createContext<LayoutState | undefined>(undefined);

/** What the header and the sider share: the header's menu button opens the sider's drawer on phones. */
export function LayoutProvider({ children }: { children: ReactNode }) {
  const [mobileMenuOpen, setMobileMenuOpen] = useState(false);
  const value = useMemo(() => ({ mobileMenuOpen, setMobileMenuOpen }), [mobileMenuOpen]);
  return <LayoutContext.Provider value={value}>{children}</LayoutContext.Provider>;
}

export function useLayout(): LayoutState {
  const state = useContext(LayoutContext);
  if (!state) throw new Error("useLayout() outside <LayoutProvider>");
  return state;
}
