import type { Role } from "../resources/define";

/** The signed-in user with the claims the backend set: {role, operator}. */
export interface SessionUser {
  uid: string;
  email: string | null;
  name: string;
  role: Role | null;
  operator: string | null;
}
