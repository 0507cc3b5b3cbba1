import { useState } from "react";
import { useCan, useList, useOne } from "@refinedev/core";
import { Typography } from "antd";
import { drawnWhenNotFound } from "../notFoundDrawn";
import { translate as t } from "../../i18n";
import type { Plan } from "../../resources/plans";
import { linesResource } from "../../resources/lines";
import type { ActionSpec } from "../../resources/define";
import { LazyActionDialog } from "../actions/LazyActionDialog";
import { actionApplies } from "../actions/RecordActions";
import { PlanCards } from "./PlanCards";

const changePlan = linesResource.actions!["change-plan"] as ActionSpec;

/**
 * The plans a line can move to, on staff's line page: the operator's plans on sale of the line's own
 * kind, its current plan marked (PlanCards, as Shop shows them). Choosing one opens the declared
 * change-plan action with that plan picked, so the quote and the rules are the engine's.
 */
export function PlanCatalog({ lineId }: { lineId: string }) {
  const { result: line } = useOne<Record<string, unknown> & { id: string }>({
    resource: "lines",
    id: lineId,
    // The page around it says when the line is not there.
    errorNotification: drawnWhenNotFound,
  });
  const { data: access } = useCan({ resource: "lines", action: "change-plan", params: { id: lineId } });
  const { result: plans } = useList<Plan>({
    resource: "plans",
    pagination: { pageSize: 50 },
    sorters: [{ field: "price", order: "asc" }],
    filters: [
      { field: "status", operator: "eq", value: "active" },
      { field: "kind", operator: "eq", value: line?.accountType },
    ],
    queryOptions: { enabled: Boolean(line?.accountType) },
  });
  const [chosen, setChosen] = useState<Plan | null>(null);
  if (!line || !access?.can || !actionApplies(changePlan, line) || !plans?.data.length) return null;

  return (
    <section aria-labelledby="plan-catalog" style={{ marginTop: 16 }}>
      <Typography.Title level={4} id="plan-catalog">
        {t("plans.catalogTitle")}
      </Typography.Title>
      <PlanCards
        plans={plans.data}
        currentPlanId={line.planId as string | undefined}
        offer={(plan, name) => (
          <button
            type="button"
            className="sub-button sub-button--quiet"
            onClick={() => setChosen(plan)}
            aria-label={t("plans.chooseNamed", { name })}
          >
            {t("plans.choose")}
          </button>
        )}
      />
      <LazyActionDialog
        resource={linesResource}
        name="change-plan"
        action={changePlan}
        record={line}
        open={Boolean(chosen)}
        preset={chosen ? { planId: chosen.id } : undefined}
        onClose={() => setChosen(null)}
      />
    </section>
  );
}
