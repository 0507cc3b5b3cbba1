import { useEffect, useId, useRef, useState } from "react";
import { useCustom, useCustomMutation } from "@refinedev/core";
import { Input, Radio, Typography } from "antd";
import {
  areaCodeSchema,
  RESERVATION_MINUTES,
  type AvailableNumber,
  type NumberReservation,
} from "../../resources/numberInventory";
import type { ApiError } from "../../providers/apiClient";
import { translate as t } from "../../i18n";
import { formatMsisdn, formatTime } from "../format";
import { GROUP_STYLE, LEGEND_STYLE } from "../groupStyle";

/** Secondary text that still meets AA on white. */
const MUTED = "#595959";

/** How long a pick rests before it is held: arrow keys pick every number they pass, only the last one is held. */
export const HOLD_AFTER_MS = 400;

/**
 * A phone number from the operator's free stock, picked instead of typed: an area code, the free numbers
 * it has as a radio group ("(202) 555-1000"), and the picked one held for the person
 * (POST /number-inventory/{msisdn}/actions/reserve) with the time the hold ends. A number someone else
 * took meanwhile, or an area code with none free, is said at the field in the server's words, and the
 * list is read again. The value is the number in E.164.
 */
export function FreeNumberPicker({
  id,
  value,
  onChange,
  legend,
  startAreaCode,
  describedBy,
}: {
  id?: string;
  value?: string;
  onChange?: (msisdn: string | undefined) => void;
  /** What the number is for ("New number"). */
  legend: string;
  /** The area code shown first (the line's own); undefined while it is still being found. */
  startAreaCode?: string;
  /** Form.Item's: where the field's error is written. */
  describedBy?: string;
}) {
  const own = useId();
  const areaId = `${id ?? own}-area`;
  const areaProblemId = `${areaId}-problem`;
  const statusId = `${id ?? own}-status`;
  const [typed, setTyped] = useState<string>();
  const areaCode = typed ?? startAreaCode ?? "";
  const wellFormed = areaCodeSchema.safeParse(areaCode).success;
  // Not `result`: Refine gives an empty object there until an answer arrives.
  const { query } = useCustom<{ data: AvailableNumber[]; total: number }>({
    url: `/number-inventory?areaCode=${areaCode}`,
    method: "get",
    queryOptions: { enabled: wellFormed, retry: false },
    errorNotification: false,
  });
  const { mutateAsync } = useCustomMutation<NumberReservation>();
  const [hold, setHold] = useState<NumberReservation>();
  const [refused, setRefused] = useState<string>();
  // The number being held now (the hold asked for, no answer yet), and for the answers: the last one picked.
  const [holding, setHolding] = useState<string>();
  const latest = useRef<string>(undefined);
  const timer = useRef<number>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const listed = wellFormed && query.isSuccess ? query.data.data.data : [];
  // The number held for this person is no longer free to others, so a list read again leaves it out: keep it in sight.
  const numbers =
    value && value.startsWith(`+1${areaCode}`) && !listed.some((n) => n.msisdn === value)
      ? [...listed, { msisdn: value, areaCode }].sort((a, b) => a.msisdn.localeCompare(b.msisdn))
      : listed;
  const areaProblem =
    areaCode.length === 3 && !wellFormed
      ? t("validation.areaCode")
      : query.isError
        ? (query.error as ApiError).message // the server's words: none free in this area code
        : undefined;

  async function reserve(msisdn: string) {
    try {
      const { data } = await mutateAsync({
        url: `/number-inventory/${encodeURIComponent(msisdn)}/actions/reserve`,
        method: "post",
        values: {},
        successNotification: false,
        errorNotification: false,
      });
      if (latest.current !== msisdn) return; // the person moved on to another number
      setHold(data);
      setHolding(undefined);
    } catch (error) {
      if (latest.current !== msisdn) return;
      setRefused((error as ApiError).message); // someone else holds it, or it went meanwhile
      setHolding(undefined);
      latest.current = undefined;
      onChange?.(undefined);
      void query.refetch();
    }
  }

  function pick(msisdn: string) {
    onChange?.(msisdn);
    setHold(undefined);
    setRefused(undefined);
    setHolding(msisdn);
    latest.current = msisdn;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void reserve(msisdn), HOLD_AFTER_MS);
  }

  const status = refused
    ? undefined
    : hold && hold.msisdn === value
      ? t("numbers.heldUntil", { msisdn: formatMsisdn(hold.msisdn), time: formatTime(hold.reservedUntil) })
      : holding && holding === value
        ? t("numbers.holding", { msisdn: formatMsisdn(holding) })
        : undefined;

  return (
    <fieldset id={id} style={GROUP_STYLE} aria-describedby={describedBy} data-testid="free-number-picker">
      <legend style={LEGEND_STYLE}>{legend}</legend>
      <label htmlFor={areaId} style={{ display: "block", marginBottom: 4 }}>
        {t("numbers.areaCode")}
      </label>
      <Input
        id={areaId}
        value={areaCode}
        onChange={(e) => {
          setTyped(e.target.value.replace(/\D/g, "").slice(0, 3));
          setRefused(undefined);
        }}
        inputMode="numeric"
        autoComplete="off"
        maxLength={3}
        status={areaProblem ? "error" : undefined}
        aria-invalid={areaProblem ? true : undefined}
        aria-describedby={areaProblem ? areaProblemId : undefined}
        style={{ width: 96 }}
      />
      <div id={areaProblemId} role="alert">
        {areaProblem && <Typography.Text type="danger">{areaProblem}</Typography.Text>}
      </div>
      {wellFormed && query.isLoading && (
        <p role="status" style={{ margin: "8px 0 0", color: MUTED }}>
          {t("numbers.looking")}
        </p>
      )}
      {numbers.length > 0 && (
        <fieldset style={{ ...GROUP_STYLE, marginTop: 12 }}>
          <legend style={LEGEND_STYLE}>{t("numbers.freeIn", { areaCode })}</legend>
          <p style={{ margin: "0 0 8px", color: MUTED }}>{t("numbers.holdHint", { minutes: RESERVATION_MINUTES })}</p>
          <Radio.Group
            value={value}
            onChange={(e) => pick(String(e.target.value))}
            style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(132px, 1fr))", gap: "4px 8px" }}
          >
            {numbers.map((n) => (
              <Radio key={n.msisdn} value={n.msisdn} style={{ marginInlineEnd: 0 }}>
                {formatMsisdn(n.msisdn)}
              </Radio>
            ))}
          </Radio.Group>
        </fieldset>
      )}
      <div id={statusId} role="status" style={{ marginTop: 8 }}>
        {status}
      </div>
      <div role="alert">{refused && <Typography.Text type="danger">{refused}</Typography.Text>}</div>
    </fieldset>
  );
}
