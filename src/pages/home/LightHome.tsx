import { useEffect, useSyncExternalStore } from "react";
import LogoutOutlined from "@ant-design/icons-svg/es/asn/LogoutOutlined";
import MobileOutlined from "@ant-design/icons-svg/es/asn/MobileOutlined";
import { getLocale, LOCALES, onLocaleChange, setLocale, translate as t, type Locale } from "../../i18n";
import { brandOf } from "../../config/brand";
import { runtimeConfig } from "../../config/runtime";
import { takePrefetchedHome } from "../../providers/homePrefetch";
import type { SessionUser } from "../../providers/session";
import type { Home } from "../../resources/usage";
import { BellLink } from "../../components/BellLink";
import { SvgIcon } from "../../components/SvgIcon";
import { SubscriberTabBar } from "../../components/layout/SubscriberTabBar";
import { HomeLines } from "./HomeLines";
import { LightBanners } from "./LightBanners";
import { useLiveGet } from "./useLiveGet";
import { LIGHT_HOME_MEDIA } from "./lightHomeMedia";
import "./lightHome.css";

export interface LightHomeProps {
  user: SessionUser;
  /** Hands the page to the portal at `to`. */
  leave: (to: string) => void;
  signOut: () => void;
}

const UNREAD = "/notifications?filter[read]=false&page=1&pageSize=1";

/**
 * A subscriber's home on a phone, before (and without) the portal: the portal's phone header and
 * HomeLines, in plain React and CSS, with the meters and the bell kept live. Its data is one request
 * (GET /home, usually prefetched at sign-in) and the unread count. Anything else the person does (a
 * link, a tab of the bottom bar, the bell) hands the page to the portal, whose code was fetched while idle
 * (main.tsx); so is a window grown past phone width, where the portal shows its sider.
 */
export function LightHome({ user, leave, signOut }: LightHomeProps) {
  const locale = useSyncExternalStore(onLocaleChange, getLocale);
  const home = useLiveGet<Home>("/home", "meters", takePrefetchedHome);
  const unread = useLiveGet<{ total: number }>(UNREAD, "notifications");
  useEffect(() => {
    document.title = `${t("dashboard.title")} · ${t("app.name", { operator: brandOf(runtimeConfig.operator).name })}`;
  }, [locale]);
  useEffect(() => {
    const phone = window.matchMedia(LIGHT_HOME_MEDIA);
    const onChange = () => !phone.matches && leave("/");
    phone.addEventListener("change", onChange);
    return () => phone.removeEventListener("change", onChange);
  }, [leave]);
  const navigate = (to: string) => leave(to);

  return (
    <div className="light-home" style={{ ["--portal-brand" as string]: brandOf(runtimeConfig.operator).primary }}>
      <LightBanners />
      <header className="light-home__header">
        <span className="light-home__brand">
          <SvgIcon icon={MobileOutlined} />
          {brandOf(runtimeConfig.operator).name}
        </span>
        <div className="light-home__tools">
          <strong className="light-home__user" data-testid="signed-in-user">
            {user.name}
          </strong>
          <span className="light-home__role">{t("roles.subscriber")}</span>
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
        <h2 className="light-home__greeting">{t("dashboard.greeting", { name: user.name.split(" ")[0] })}</h2>
        <HomeLines home={home.data} error={home.error} navigate={navigate} />
      </main>
      <SubscriberTabBar pathname="/" navigate={navigate} />
    </div>
  );
}
