import { useGetIdentity } from "@refinedev/core";
import { brandOf } from "../../config/brand";
import { runtimeConfig } from "../../config/runtime";
import type { Role } from "../../resources/define";
import { todayUtc, type ExpressionContext } from "../../resources/expressions/declaration";
import type { SessionUser } from "../../providers/session";

/** What a declaration's expressions see in the browser: who acts, today (UTC, as the server) and the operator's currency. */
export const expressionContext = (role: Role | null | undefined): ExpressionContext => ({
  role: role ?? null,
  today: todayUtc(),
  currency: brandOf(runtimeConfig.operator).currency,
});

/**
 * The expression context of the signed-in person; none until who that is is known (a rule on `role`
 * must not pass for a moment as if no one were signed in).
 */
export function useExpressionContext(): ExpressionContext | undefined {
  const { data: user, isLoading } = useGetIdentity<SessionUser>();
  return isLoading ? undefined : expressionContext(user?.role);
}
