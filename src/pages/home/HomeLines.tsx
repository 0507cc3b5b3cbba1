import { translate as t } from "../../i18n";
import { catalogName } from "../../i18n/catalogText";
import type { Home, HomeAccount, HomeLine } from "../../resources/usage";
import { LineMeters } from "../../components/usage/LineMeters";
import { formatDate, formatMoney, formatMsisdn } from "../../components/format";
import { TONES } from "../../components/statusTones";
import { PlainLink, type Navigate } from "../../components/PlainLink";
import { lineStatusBadge } from "../lines/lineStatus";
import { NextSteps } from "./NextSteps";
import "./home.css";

/**
 * A subscriber's lines at a glance (GET /home): plan, money and meters per line. Plain React and CSS,
 * so the light app (LightApp.tsx) shows it before the portal's code runs; the portal's own home
 * (DashboardPage) renders the same component.
 */
export function HomeLines({ home, error, navigate }: { home: Home | undefined; error?: string; navigate: Navigate }) {
  return (
    <section aria-labelledby="your-lines" className="home-lines">
      {home && <NextSteps home={home} navigate={navigate} />}
      {/* The title comes with the lines: drawn above the loading block, the next steps arriving with the
          lines pushed it and everything below down. */}
      {(home || error) && (
        <h2 id="your-lines" className="home__subtitle">
          {t("dashboard.yourLines")}
        </h2>
      )}
      {error ? (
        <p role="alert" className="home__error">
          {t("usage.home.error", { message: error })}
        </p>
      ) : !home ? (
        // Its own key: reused for the lines' grid below (same tag, same place), the block would "move"
        // down when the next steps came above it, a layout shift to the browser.
        <div key="loading" className="home__loading" role="status" aria-label={t("dashboard.loadingLines")} />
      ) : home.lines.length === 0 ? (
        <p className="home__empty">{t("dashboard.noLines")}</p>
      ) : (
        <div className="home-lines__grid">
          {home.lines.map((line) => (
            <LineCard
              key={line.id}
              line={line}
              account={home.accounts.find((a) => a.id === line.accountId)}
              navigate={navigate}
            />
          ))}
        </div>
      )}
    </section>
  );
}

function LineCard({
  line,
  account,
  navigate,
}: {
  line: HomeLine;
  account: HomeAccount | undefined;
  navigate: Navigate;
}) {
  const badge = lineStatusBadge(line);
  const price = line.plan.price;
  return (
    <article
      className="line-card"
      data-testid="line-card"
      aria-label={t("usage.home.line", { msisdn: formatMsisdn(line.msisdn) })}
    >
      <header className="line-card__head">
        <PlainLink to={`/lines/show/${line.id}`} navigate={navigate} className="line-card__number">
          {formatMsisdn(line.msisdn)}
        </PlainLink>
        <span className="status-badge" style={TONES[badge.tone]} data-testid="line-card-status">
          {badge.text}
        </span>
      </header>
      <div className="line-card__body">
        <p>
          <strong>{catalogName(line.plan)}</strong>{" "}
          {/* No price for a member of the account: /home leaves it out for them (issue 28). */}
          <span className="home__muted">
            · {price && <>{t("units.perMonth", { price: formatMoney(price) })} · </>}
            {t(`enums.accountType.${line.accountType}`)}
          </span>
        </p>
        <AccountMoney account={account} navigate={navigate} />
        {line.grace && (
          <p data-testid="line-grace">
            {line.grace.price
              ? t("usage.home.grace", { date: formatDate(line.grace.endsOn), price: formatMoney(line.grace.price) })
              : t("usage.home.graceNoPrice", { date: formatDate(line.grace.endsOn) })}
          </p>
        )}
        {/* In grace the plan has no allowance: the sentence above says what to do, bars of "of 0 MB" would not. */}
        {!line.grace && (
          <LineMeters
            meters={line.meters}
            daysLeft={line.daysLeft}
            lineId={line.id}
            navigate={navigate}
            cancelsOn={line.cancelsOn}
          />
        )}
      </div>
    </article>
  );
}

/** The prepaid balance or postpaid amount due of the line's account, as the ledger has it. */
function AccountMoney({ account, navigate }: { account: HomeAccount | undefined; navigate: Navigate }) {
  if (!account?.balance && !account?.amountDue) return null;
  return (
    <p data-testid="account-money">
      {account.balance ? (
        <>
          {t("usage.money.balance", { amount: formatMoney(account.balance) })} ·{" "}
          <PlainLink to="/top-up" navigate={navigate} className="home__link">
            {t("topUp.title")}
          </PlainLink>
        </>
      ) : (
        t("usage.money.amountDue", { amount: formatMoney(account.amountDue!) })
      )}
    </p>
  );
}
