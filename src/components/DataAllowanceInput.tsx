import { Checkbox, InputNumber, Select, Space, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { translate as t } from "../i18n";
import { formatNumber } from "./format";

export type DataUnit = "GB" | "MB";

/** MB in one GB, as formatDataMb counts them. */
const MB_PER_GB = 1024;

/**
 * GB when the amount reads exactly with 2 decimals (5120 → 5 GB, 1536 → 1.5 GB); else MB (1000 → 1000 MB).
 * Nothing typed yet: GB, as people count data (a "5" meant as 5 GB must not become a 5 MB limit).
 */
export function unitFor(mb: number | null | undefined): DataUnit {
  if (typeof mb !== "number") return "GB";
  return mb >= MB_PER_GB && (mb * 100) % MB_PER_GB === 0 ? "GB" : "MB";
}

/** What is typed in `unit` as whole MB, as records hold data: 1.5 GB → 1536. */
export const toMb = (amount: number, unit: DataUnit) => Math.round(unit === "GB" ? amount * MB_PER_GB : amount);

const amountIn = (mb: number | null | undefined, unit: DataUnit) =>
  typeof mb === "number" ? (unit === "GB" ? mb / MB_PER_GB : mb) : null;

/**
 * A data allowance typed in GB or MB and held as records hold it: whole MB, null for unlimited.
 * Unlimited is a choice of its own (when the field allows it): a blank amount is left undefined,
 * which the form refuses, so nobody makes a plan unlimited by forgetting to type a number.
 */
export function DataAllowanceInput({
  id,
  value,
  onChange,
  onBlur,
  unlimitedAllowed,
}: {
  id?: string;
  value?: number | null;
  onChange?: (value: number | null | undefined) => void;
  onBlur?: React.FocusEventHandler<HTMLElement>;
  unlimitedAllowed: boolean;
}) {
  const [unit, setUnit] = useState<DataUnit>(() => unitFor(value));
  const [amount, setAmount] = useState<number | null>(() => amountIn(value, unitFor(value)));
  const [unlimited, setUnlimited] = useState(value === null && unlimitedAllowed);
  // What this input last handed the form: a value that differs came from outside (the record loaded).
  const emitted = useRef(value);
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    const next = unitFor(value);
    setUnit(next);
    setAmount(amountIn(value, next));
    setUnlimited(value === null && unlimitedAllowed);
  }, [value, unlimitedAllowed]);

  const emit = (next: number | null | undefined) => {
    emitted.current = next;
    onChange?.(next);
  };
  const hintId = id ? `${id}-hint` : undefined;
  const mb = amount === null ? null : toMb(amount, unit);

  return (
    <div onBlur={onBlur}>
      <Space wrap align="center">
        <Space.Compact>
          <InputNumber<number>
            controls={false} // its steppers are named in English only (see MoneyInput)
            id={id}
            aria-describedby={hintId}
            style={{ width: 160 }}
            min={0}
            precision={unit === "GB" ? 2 : 0}
            disabled={unlimited}
            value={unlimited ? null : amount}
            onChange={(typed) => {
              setAmount(typed);
              emit(typed === null ? undefined : toMb(typed, unit));
            }}
          />
          <Select<DataUnit>
            aria-label={t("dataInput.unit")}
            style={{ width: 80 }}
            disabled={unlimited}
            value={unit}
            options={[
              { value: "GB", label: "GB" },
              { value: "MB", label: "MB" },
            ]}
            // The number typed stays; the unit says what it means (5 MB → 5 GB).
            onChange={(next) => {
              setUnit(next);
              if (amount !== null) emit(toMb(amount, next));
            }}
          />
        </Space.Compact>
        {unlimitedAllowed && (
          <Checkbox
            checked={unlimited}
            onChange={(e) => {
              setUnlimited(e.target.checked);
              emit(e.target.checked ? null : (mb ?? undefined));
            }}
          >
            {t("units.unlimited")}
          </Checkbox>
        )}
      </Space>
      <Typography.Paragraph id={hintId} type="secondary" style={{ margin: "4px 0 0", fontSize: 13 }}>
        {t(unlimitedAllowed ? "dataInput.hintUnlimited" : "dataInput.hint")}
        {!unlimited && unit === "GB" && mb !== null ? ` ${t("dataInput.inMb", { value: formatNumber(mb) })}` : ""}
      </Typography.Paragraph>
    </div>
  );
}
