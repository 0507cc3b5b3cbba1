import { Button, Checkbox, InputNumber, Select, Space, Typography } from "antd";
import { translate as t } from "../i18n";
import type { Money } from "../resources/common";
import { OVERAGE_ZONES, type Overage, type OverageZone, type TypeRates, type UsageKind } from "../resources/overage";
import { MoneyInput } from "./MoneyInput";

// The catalog's input for a plan's rates past its allowance (issue 24): at home and per roaming zone,
// each usage type either charged (a price per MB/GB, per minute, per text) or stopped at the allowance.
// The value is the record's `overage`; nothing charged anywhere is null ("capped for every type").

const TYPES: UsageKind[] = ["data", "voice", "sms"];
const EMPTY: TypeRates = { data: null, voice: null, sms: null };

const isEmpty = (rates: TypeRates) => TYPES.every((type) => !rates[type]);

function TypeRatesInput({
  rates,
  onChange,
  currency,
  idPrefix,
  zoneLabel,
}: {
  rates: TypeRates;
  onChange: (rates: TypeRates) => void;
  currency: string;
  idPrefix: string;
  zoneLabel: string;
}) {
  const free = (amount = 0): Money => ({ amount, currency });
  return (
    <Space direction="vertical" style={{ width: "100%" }} size={4}>
      {TYPES.map((type) => {
        const rate = rates[type];
        const typeLabel = t(`usage.meter.${type}`);
        const unit =
          type === "data"
            ? null
            : type === "voice"
              ? t("overage.perMinute", { price: "" })
              : t("overage.perText", { price: "" });
        return (
          <div key={type} style={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 8 }}>
            <Checkbox
              id={`${idPrefix}-${type}`}
              checked={Boolean(rate)}
              onChange={(e) =>
                onChange({
                  ...rates,
                  [type]: e.target.checked
                    ? type === "data"
                      ? { unitMb: 1, price: free() }
                      : { price: free() }
                    : null,
                })
              }
            >
              {typeLabel}: {rate ? t("overage.charge") : t("overage.capped")}
            </Checkbox>
            {rate && (
              <>
                {type === "data" && (
                  <InputNumber<number>
                    controls={false} // its steppers are named in English only (see MoneyInput)
                    aria-label={`${zoneLabel}, ${typeLabel}: ${t("overage.unitMb")}`}
                    min={1}
                    precision={0}
                    addonAfter="MB"
                    style={{ width: 130 }}
                    value={(rate as { unitMb: number }).unitMb}
                    onChange={(unitMb) =>
                      onChange({
                        ...rates,
                        data: { ...(rate as { unitMb: number; price: Money }), unitMb: unitMb ?? 0 },
                      })
                    }
                  />
                )}
                <span
                  style={{ width: 140 }}
                  aria-label={`${zoneLabel}, ${typeLabel}: ${t("overage.price")}`}
                  role="group"
                >
                  <MoneyInput
                    currency={currency}
                    value={rate.price}
                    onChange={(price) => onChange({ ...rates, [type]: { ...rate, price: price ?? free() } })}
                  />
                </span>
                {unit && <Typography.Text type="secondary">{unit.trim()}</Typography.Text>}
              </>
            )}
          </div>
        );
      })}
    </Space>
  );
}

export function OverageInput({
  id,
  value,
  onChange,
  currency,
}: {
  id?: string;
  value?: Overage | null;
  onChange?: (value: Overage | null) => void;
  currency: string;
}) {
  const overage: Overage = value ?? { ...EMPTY, roaming: {} };
  const zones = OVERAGE_ZONES.filter((zone) => overage.roaming?.[zone]);
  const emit = (next: Overage) => {
    const roamingEmpty = OVERAGE_ZONES.every((zone) => !next.roaming?.[zone]);
    onChange?.(isEmpty(next) && roamingEmpty ? null : next);
  };
  const zoneLabel = (zone: OverageZone) => t(`enums.roamingZone.${zone}`, undefined, zone);
  return (
    <div id={id} role="group" style={{ display: "flex", flexDirection: "column", gap: 12 }}>
      <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
        <legend style={{ fontSize: 14, fontWeight: 600, marginBottom: 4 }}>{t("overage.home")}</legend>
        <TypeRatesInput
          rates={overage}
          currency={currency}
          idPrefix={`${id ?? "overage"}-home`}
          zoneLabel={t("overage.home")}
          onChange={(rates) => emit({ ...overage, ...rates })}
        />
      </fieldset>
      {zones.map((zone) => (
        <fieldset key={zone} style={{ border: 0, margin: 0, padding: 0 }}>
          <legend
            style={{ fontSize: 14, fontWeight: 600, marginBottom: 4, display: "flex", gap: 8, alignItems: "center" }}
          >
            {zoneLabel(zone)}
            <Button
              size="small"
              type="link"
              onClick={() => {
                const roaming = { ...overage.roaming };
                delete roaming[zone];
                emit({ ...overage, roaming });
              }}
            >
              {t("overage.removeZone", { zone: zoneLabel(zone) })}
            </Button>
          </legend>
          <TypeRatesInput
            rates={overage.roaming?.[zone] ?? {}}
            currency={currency}
            idPrefix={`${id ?? "overage"}-${zone}`}
            zoneLabel={zoneLabel(zone)}
            onChange={(rates) => emit({ ...overage, roaming: { ...overage.roaming, [zone]: rates } })}
          />
        </fieldset>
      ))}
      {zones.length < OVERAGE_ZONES.length && (
        <Select<OverageZone>
          aria-label={t("overage.addZone")}
          placeholder={t("overage.addZone")}
          value={null}
          style={{ maxWidth: 320 }}
          options={OVERAGE_ZONES.filter((zone) => !overage.roaming?.[zone]).map((zone) => ({
            value: zone,
            label: zoneLabel(zone),
          }))}
          onChange={(zone) => emit({ ...overage, roaming: { ...overage.roaming, [zone]: { ...EMPTY } } })}
        />
      )}
    </div>
  );
}
