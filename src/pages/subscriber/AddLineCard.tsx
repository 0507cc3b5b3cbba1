import { useState } from "react";
import { translate as t } from "../../i18n";
import type { Account } from "../../resources/accounts";
import { ADD_LINE_LABEL, takesNewLine } from "../../resources/addLineOffer";
import type { Navigate } from "../../components/PlainLink";
import { GROUP_STYLE, LEGEND_STYLE } from "../../components/groupStyle";
import { useLiveList } from "../home/useLiveGet";
/** An account as its holder tells it from their others: its kind and name ("Prepaid · Alex Rivera"). */
export const accountWords = (account: Account) => `${t(`enums.accountType.${account.type}`)} · ${account.name}`;

/** Where Add a line leads: Shop with the declared add-line dialog open for that account (the portal's). */
export const addLinePath = (accountId: string) => `/shop?${new URLSearchParams({ "add-line": accountId }).toString()}`;

/**
 * Shop's "Add a line" (issue 28): a new line for someone in the family, on an account the person holds
 * (add-line is the holder's alone: managers see the account but may not, members do not see it), a
 * choice of account only when they hold several. Plain React without the declarations (the light Shop
 * loads it once its cards are drawn; what it needs of add-line is in resources/addLineOffer.ts); its button leads to `addLinePath`, where the portal opens the
 * declared add-line dialog, whose result (an eSIM's QR code) and refreshed home are the engine's.
 */
export default function AddLineCard({ uid, navigate }: { uid: string; navigate: Navigate }) {
  const accounts = useLiveList<Account>("accounts", { pageSize: 20 });
  const held = (accounts.data ?? []).filter((account) => account.ownerUid === uid && takesNewLine(account));
  const [picked, setPicked] = useState<string>();
  const account = held.find((a) => a.id === picked) ?? held[0];
  if (!account) return null;
  return (
    <section className="sub-card" aria-labelledby="add-line-title" data-testid="add-line-card">
      <h2 id="add-line-title" className="sub-card__title">
        {t("subscriber.shop.addLine.title")}
      </h2>
      <p className="sub-card__muted" style={{ marginTop: 0 }}>
        {t("subscriber.shop.addLine.about")}
      </p>
      {held.length > 1 && (
        <fieldset style={{ ...GROUP_STYLE, marginBottom: 12 }}>
          <legend style={LEGEND_STYLE}>{t("subscriber.shop.addLine.account")}</legend>
          <div style={{ display: "flex", flexDirection: "column", gap: 8 }}>
            {held.map((a) => (
              <label key={a.id} style={{ display: "flex", gap: 8, alignItems: "center", minHeight: 32 }}>
                <input
                  type="radio"
                  name="add-line-account"
                  value={a.id}
                  checked={a.id === account.id}
                  onChange={() => setPicked(a.id)}
                />
                {accountWords(a)}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <button
        type="button"
        className="sub-button"
        style={{ width: "100%" }}
        onClick={() => navigate(addLinePath(account.id))}
      >
        {t(ADD_LINE_LABEL)}
      </button>
    </section>
  );
}
