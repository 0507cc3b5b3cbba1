import { useState } from "react";
import { useList } from "@refinedev/core";
import { Button, Radio } from "antd";
import { translate as t } from "../../i18n";
import { accountsResource, type Account } from "../../resources/accounts";
import { meets, type ActionSpec } from "../../resources/define";
import { LazyActionDialog } from "../../components/actions/LazyActionDialog";
import { GROUP_STYLE, LEGEND_STYLE } from "../../components/groupStyle";

const addLine = accountsResource.actions!["add-line"] as ActionSpec;

/** An account as its holder tells it from their others: its kind and name ("Prepaid · Alex Rivera"). */
const accountWords = (account: Account) => `${t(`enums.accountType.${account.type}`)} · ${account.name}`;

/**
 * Shop's "Add a line" (issue 28): a new line for someone in the family, on an account the person holds
 * (add-line is the holder's alone: managers see the account but may not, members do not see it), a
 * choice of account only when they hold several. It opens the declared add-line dialog, whose result
 * (an eSIM's QR code) and refreshed home are the engine's.
 */
export function AddLineCard({ uid }: { uid: string }) {
  const { result } = useList<Account>({ resource: "accounts", pagination: { pageSize: 20 } });
  const held = (result.data ?? []).filter((account) => account.ownerUid === uid && meets(addLine.when, account));
  const [picked, setPicked] = useState<string>();
  const [open, setOpen] = useState(false);
  const account = held.find((a) => a.id === picked) ?? held[0];
  if (!account) return null;
  return (
    <section className="sub-card" aria-labelledby="add-line-title" data-testid="add-line-card">
      <h2 id="add-line-title" className="sub-card__title" style={{ whiteSpace: "normal" }}>
        {t("subscriber.shop.addLine.title")}
      </h2>
      <p className="sub-card__muted" style={{ marginTop: 0 }}>
        {t("subscriber.shop.addLine.about")}
      </p>
      {held.length > 1 && (
        <fieldset style={{ ...GROUP_STYLE, marginBottom: 12 }}>
          <legend style={LEGEND_STYLE}>{t("subscriber.shop.addLine.account")}</legend>
          <Radio.Group
            value={account.id}
            onChange={(e) => setPicked(String(e.target.value))}
            style={{ display: "flex", flexDirection: "column", gap: 8 }}
            options={held.map((a) => ({ value: a.id, label: accountWords(a) }))}
          />
        </fieldset>
      )}
      <Button type="primary" block onClick={() => setOpen(true)}>
        {t(addLine.label)}
      </Button>
      <LazyActionDialog
        resource={accountsResource}
        name="add-line"
        action={addLine}
        record={account}
        object={accountWords(account)}
        open={open}
        onClose={() => setOpen(false)}
      />
    </section>
  );
}
