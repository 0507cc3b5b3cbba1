import { InputNumber } from "antd";
import type { Money } from "../resources/common";
import { currencySymbol, minorDigits, toMajor, toMinor } from "./format";

/**
 * An amount of money typed in major units (dollars and cents) and held as records hold money:
 * `{amount, currency}` with the amount in integer minor units, never a float.
 */
export function MoneyInput({
  value,
  onChange,
  onBlur,
  currency: fallback,
  id,
}: {
  value?: Money | null;
  onChange?: (value: Money | null) => void;
  onBlur?: React.FocusEventHandler<HTMLInputElement>;
  currency: string;
  id?: string;
}) {
  const currency = value?.currency ?? fallback;
  const digits = minorDigits(currency);
  return (
    <InputNumber<number>
      // No steppers: rc-input-number names them "Increase Value" and "Decrease Value" in English only;
      // the arrow keys still step.
      controls={false}
      id={id}
      style={{ width: "100%" }}
      min={0}
      precision={digits}
      step={digits ? 1 / 10 ** digits : 1}
      prefix={currencySymbol(currency)}
      value={value ? toMajor(value.amount, currency) : null}
      // A form that checks a field when it is left (validateTrigger "onBlur") hears it leave.
      onBlur={onBlur}
      onChange={(major) => onChange?.(major === null ? null : { amount: toMinor(major, currency), currency })}
    />
  );
}
