import { useQuery } from "@tanstack/react-query";
import type { Me } from "../resources/identity";
import { apiRequest } from "./apiClient";

/**
 * GET /me, shared by the security page and the staff MFA gate. Its own module so the gate (on every
 * signed-in page) does not pull the security page into the portal's first chunk.
 */
export const meQueryKey = ["portal", "me"] as const;
export const useMe = (enabled = true) =>
  useQuery({ queryKey: meQueryKey, queryFn: () => apiRequest<Me>("/me"), staleTime: 30_000, enabled });
