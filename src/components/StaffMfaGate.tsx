import type { ReactNode } from "react";
import { useGetIdentity } from "@refinedev/core";
import { Skeleton } from "antd";
import { Navigate, useLocation } from "react-router";
import { useMe } from "../providers/me";
import type { SessionUser } from "../providers/session";
import { isStaff } from "../resources/access";

/**
 * When the operator requires two-step verification for staff, an agent or admin whose session was
 * not signed in with a second factor sees only the security page (the backend refuses the rest).
 * The rule is for staff only (the backend's mfaRequired is false for anyone else), so a subscriber's
 * pages do not wait for GET /me: the role comes from the token, read locally.
 */
export function StaffMfaGate({ children }: { children: ReactNode }) {
  const identity = useGetIdentity<SessionUser>();
  const staff = isStaff(identity.data?.role);
  const me = useMe(staff);
  const { pathname } = useLocation();
  if (identity.isLoading || (staff && me.isLoading)) return <Skeleton active />;
  if (staff && me.data?.mfaRequired && !me.data.secondFactor && pathname !== "/security")
    return <Navigate to="/security?required=mfa" replace />;
  return <>{children}</>;
}
