import { lazy, Suspense, useCallback, useEffect, useState, useSyncExternalStore } from "react";
import LogoutOutlined from "@ant-design/icons-svg/es/asn/LogoutOutlined";
import MobileOutlined from "@ant-design/icons-svg/es/asn/MobileOutlined";
import { getLocale, LOCALES, onLocaleChange, setLocale, translate as t, type Locale } from "../../i18n";
import { brandOf } from "../../config/brand";
import { runtimeConfig } from "../../config/runtime";
import type { SessionUser } from "../../providers/session";
import type { Home } from "../../resources/usage";
import type { Destination } from "../../resources/define";
import { PlainLink, type Navigate } from "../../components/PlainLink";
import type { Task } from "../subscriber/TaskList";
import { BellLink } from "../../components/BellLink";
import { SvgIcon } from "../../components/SvgIcon";
import { SubscriberTabBar } from "../../components/layout/SubscriberTabBar";
import { ConsentSync } from "../../components/switches/ConsentSync";
import { HelpChat } from "../../components/switches/HelpChat";
import { AccountView, accountMore } from "../subscriber/AccountView";
import { UsageView } from "../subscriber/UsageView";
import { MoneyView } from "../subscriber/MoneyView";
import { ShopView } from "../subscriber/ShopView";
import { billOwed } from "../subscriber/BillSummary";
import type { Invoice } from "../../resources/invoices";
import { HomeLines } from "./HomeLines";
import { LightBanners } from "./LightBanners";
import { useLiveGet } from "./useLiveGet";
import { usePageDrawn } from "./pageDrawn";
import { isLightPath, LIGHT_MEDIA } from "./lightPages";
import "./lightHome.css";

export interface LightAppProps {
  user: SessionUser;
  /** Hands the page to the portal at `to`. */
  leave: (to: string) => void;
  signOut: () => void;
}

const UNREAD = "/notifications?filter[read]=false&page=1&pageSize=1";

// The declarations (and zod with them) load after the page's first paint: only "More" and Shop's
// Add a line need them.
const DestinationTasks = lazy(() => import("../subscriber/DestinationTasks"));
const AddLineCard = lazy(() => import("../subscriber/AddLineCard"));

/** Page titles by light path, as the portal titles the same pages. */
const TITLES: Record<string, string> = {
  "/": "dashboard.title",
  "/usage": "destinations.usage",
  "/money": "destinations.money",
  "/shop": "destinations.shop",
  "/account": "destinations.account",
};

/**
 * A subscriber's Home, Usage, Money, Shop and Account on a phone, before (and without) the portal:
 * the portal's phone header, the bottom tab bar and the same pages (HomeLines, UsageView, MoneyView,
 * ShopView, AccountView), in plain React and CSS, kept live over the one SSE stream; with what a build
 * may put on every page (the consent kept in step with the profile, the CRM chat's help button).
 * Moving between these pages stays here (history entries of their own); anything else the person does
 * (a line, Top up, Pay, a plan change or a pass, the bell) hands the page to the portal, whose code
 * was fetched while idle (main.tsx); so does a window grown past phone width, where the portal shows
 * its sider.
 */
export function LightApp({ user, leave, signOut }: LightAppProps) {
  const locale = useSyncExternalStore(onLocaleChange, getLocale);
  const [path, setPath] = useState(() => ({ pathname: location.pathname, search: location.search }));
  const { pathname } = path;
  const unread = useLiveGet<{ total: number }>(UNREAD, "notifications");
  const operator = brandOf(runtimeConfig.operator).name;

  const navigate = useCallback<Navigate>(
    (to) => {
      if (!isLightPath(to)) return leave(to);
      const url = new URL(to, location.origin);
      if (url.pathname + url.search !== location.pathname + location.search) history.pushState(null, "", to);
      setPath({ pathname: url.pathname, search: url.search });
      window.scrollTo(0, 0);
    },
    [leave],
  );
  useEffect(() => {
    // Back and Forward between light pages stay here; to anywhere else, the portal takes over.
    const onPop = () => {
      const path = location.pathname + location.search + location.hash;
      if (isLightPath(path)) setPath({ pathname: location.pathname, search: location.search });
      else leave(path);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, [leave]);
  useEffect(() => {
    document.title = `${t(TITLES[pathname] ?? "dashboard.title")} · ${t("app.name", { operator })}`;
  }, [locale, pathname, operator]);
  useEffect(() => {
    const phone = window.matchMedia(LIGHT_MEDIA);
    const onChange = () => !phone.matches && leave(location.pathname + location.search);
    phone.addEventListener("change", onChange);
    return () => phone.removeEventListener("change", onChange);
  }, [leave]);

  const more = (place: Destination, options: { extra?: readonly Task[]; drawn?: readonly string[] } = {}) => (
    <Suspense fallback={null}>
      <DestinationTasks place={place} user={user} navigate={navigate} {...options} />
    </Suspense>
  );

  return (
    <div className="light-home" style={{ ["--portal-brand" as string]: brandOf(runtimeConfig.operator).primary }}>
      <LightBanners />
      <header className="light-home__header">
        <span className="light-home__brand">
          <SvgIcon icon={MobileOutlined} />
          {operator}
        </span>
        <div className="light-home__tools">
          <strong className="light-home__user" data-testid="signed-in-user">
            {user.name}
          </strong>
          <BellLink unread={unread.data?.total ?? 0} navigate={navigate} />
          <select
            aria-label={t("language.label")}
            className="light-home__language"
            value={locale}
            onChange={(event) => setLocale(event.target.value as Locale)}
          >
            {LOCALES.map((l) => (
              // Each language named in itself, and marked so (a screen reader says "Español" in Spanish).
              <option key={l} value={l} lang={l}>
                {t(`language.${l}`)}
              </option>
            ))}
          </select>
          <button type="button" className="light-home__button" aria-label={t("auth.signOut")} onClick={signOut}>
            <SvgIcon icon={LogoutOutlined} />
            <span className="light-home__signout-text">{t("auth.signOut")}</span>
          </button>
        </div>
      </header>
      <main className="light-home__content with-tab-bar">
        {pathname === "/usage" ? (
          <UsageView navigate={navigate} more={more("usage")} />
        ) : pathname === "/money" ? (
          <MoneyView navigate={navigate} billPay={(bill) => lightPay(bill, user, navigate)} more={more("money")} />
        ) : pathname === "/account" ? (
          <AccountView user={user} navigate={navigate} more={more("account", { extra: accountMore() })} />
        ) : pathname === "/shop" ? (
          <ShopView
            navigate={navigate}
            lineId={new URLSearchParams(path.search).get("line") ?? undefined}
            addLine={
              <Suspense fallback={null}>
                <AddLineCard uid={user.uid} navigate={navigate} />
              </Suspense>
            }
            more={more("shop", { drawn: ["plans", "add-ons"] })}
          />
        ) : (
          <LightHome user={user} navigate={navigate} />
        )}
      </main>
      <SubscriberTabBar pathname={pathname} navigate={navigate} />
      <ConsentSync />
      <HelpChat user={user} />
    </div>
  );
}

/** A bill's Pay on the light Money page: for its holder while owed (as declared), a link to the portal's Money opening its dialog. */
function lightPay(bill: Invoice, user: SessionUser, navigate: Navigate) {
  if (!billOwed(bill) || bill.ownerUid !== user.uid) return null;
  const overdue = bill.status === "overdue";
  return (
    <PlainLink
      to={`/money?pay=${bill.id}`}
      navigate={navigate}
      className={overdue ? "sub-button sub-button--danger" : "sub-button"}
    >
      {t(overdue ? "subscriber.money.payNow" : "subscriber.money.pay")}
    </PlainLink>
  );
}

/** The home: the greeting and each line with its money, meters and next steps (GET /home, usually prefetched at sign-in). */
function LightHome({ user, navigate }: { user: SessionUser; navigate: Navigate }) {
  const home = useLiveGet<Home>("/home", "meters");
  usePageDrawn(Boolean(home.data || home.error));
  return (
    <>
      {/* The page's one h1, as each destination's title is on its page. */}
      <h1 className="light-home__greeting">{t("dashboard.greeting", { name: user.name.split(" ")[0] })}</h1>
      <HomeLines home={home.data} error={home.error} navigate={navigate} />
    </>
  );
}
