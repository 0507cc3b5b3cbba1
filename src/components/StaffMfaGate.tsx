import type { ReactNode } from "react";
import { Skeleton } from "antd";
import { Navigate, useLocation } from "react-router";
import { useMe } from "../pages/security/SecurityPage";

/**
 * When the operator requires two-step verification for staff, an agent or admin whose session was
 * not signed in with a second factor sees only the security page (the backend refuses the rest).
 */
export function StaffMfaGate({ children }: { children: ReactNode }) {
  const me = useMe();
  const { pathname } = useLocation();
  if (me.isLoading) return <Skeleton active />;
  if (me.data?.mfaRequired && !me.data.secondFactor && pathname !== "/security") return <Navigate to="/security?required=mfa" replace />;
  return <>{children}</>;
}
