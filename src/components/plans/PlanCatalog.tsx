import { useState } from "react";
import { useCan, useList, useOne } from "@refinedev/core";
import { Button, Card, Col, Row, Space, Tag, Typography } from "antd";
import { translate as t } from "../../i18n";
import { catalogFeatures, catalogName } from "../../i18n/catalogText";
import type { Plan } from "../../resources/plans";
import { linesResource } from "../../resources/lines";
import type { ActionSpec } from "../../resources/define";
import { LazyActionDialog } from "../actions/LazyActionDialog";
import { actionApplies } from "../actions/RecordActions";
import { formatDataMb, formatMoney, formatQuantity } from "../format";
import { pastAllowanceWords, roamingWords } from "./overageWords";

const changePlan = linesResource.actions!["change-plan"] as ActionSpec;

/**
 * The plans a line can move to, as cards to compare side by side (one column at 360 px): the
 * operator's plans on sale of the line's own kind, its current plan marked. Choosing one opens the
 * declared change-plan action with that plan picked, so the quote and the rules are the engine's.
 */
export function PlanCatalog({ lineId }: { lineId: string }) {
  const { result: line } = useOne<Record<string, unknown> & { id: string }>({ resource: "lines", id: lineId });
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
      <Row gutter={[12, 12]}>
        {plans.data.map((plan) => {
          const current = plan.id === line.planId;
          const name = catalogName(plan);
          const features = catalogFeatures(plan);
          return (
            <Col key={plan.id} xs={24} sm={12} lg={8}>
              <Card
                size="small"
                data-testid="plan-card"
                title={name}
                extra={current ? <Tag color="blue">{t("plans.current")}</Tag> : null}
                style={{ height: "100%" }}
              >
                <Typography.Title level={5} style={{ marginTop: 0 }}>
                  {t(plan.sharing === "pool" ? "plans.perLinePerMonth" : "units.perMonth", {
                    price: formatMoney(plan.price),
                  })}
                </Typography.Title>
                {plan.sharing === "pool" && (
                  <Typography.Paragraph style={{ margin: "0 0 8px" }} data-testid="plan-shared">
                    {t("plans.sharedData", { data: formatDataMb(plan.dataMb) })}
                  </Typography.Paragraph>
                )}
                <dl style={{ margin: "0 0 8px" }}>
                  <Allowance
                    label={t("usage.meter.data")}
                    value={formatDataMb(plan.dataMb)}
                    past={pastAllowanceWords(plan, "data")}
                  />
                  <Allowance
                    label={t("usage.meter.voice")}
                    value={formatQuantity(plan.voiceMinutes, "units.minutes")}
                    past={pastAllowanceWords(plan, "voice")}
                  />
                  <Allowance
                    label={t("usage.meter.sms")}
                    value={formatQuantity(plan.sms, "units.texts")}
                    past={pastAllowanceWords(plan, "sms")}
                  />
                </dl>
                {roamingWords(plan).map((words) => (
                  <Typography.Paragraph
                    key={words}
                    type="secondary"
                    style={{ margin: "0 0 4px", fontSize: 13 }}
                    data-testid="plan-roaming-rates"
                  >
                    {words}
                  </Typography.Paragraph>
                ))}
                {features.length > 0 && (
                  <Space size={[4, 4]} wrap style={{ marginBottom: 8 }}>
                    {features.map((feature) => (
                      <Tag key={feature}>{feature}</Tag>
                    ))}
                  </Space>
                )}
                {!current && (
                  <Button block onClick={() => setChosen(plan)} aria-label={t("plans.chooseNamed", { name })}>
                    {t("plans.choose")}
                  </Button>
                )}
              </Card>
            </Col>
          );
        })}
      </Row>
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

function Allowance({ label, value, past }: { label: string; value: string; past: string | null }) {
  return (
    <div style={{ display: "flex", justifyContent: "space-between", gap: 8 }}>
      <dt>{label}</dt>
      <dd style={{ margin: 0, textAlign: "right" }}>
        <strong>{value}</strong>
        {past && (
          <span style={{ display: "block", fontSize: 13, color: "rgba(0, 0, 0, 0.65)" }} data-testid="plan-overage">
            {past}
          </span>
        )}
      </dd>
    </div>
  );
}
