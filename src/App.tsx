import "./config/zodInTheBrowser";
import "@ant-design/v5-patch-for-react-19";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { Authenticated, CanAccess, ErrorComponent, Refine, useGetIdentity } from "@refinedev/core";
import routerProvider, { DocumentTitleHandler, UnsavedChangesNotifier } from "@refinedev/react-router";
import { App as AntdApp, ConfigProvider, Result, Spin } from "antd";
import { BrowserRouter, Outlet, Route, Routes } from "react-router";
import { antdLocaleOf } from "./config/antdLocales";
import { portalTheme } from "./config/antdTheme";
import { brandOf } from "./config/brand";
import { runtimeConfig } from "./config/runtime";
import { getLocale, onLocaleChange, translate as t } from "./i18n";
import { addResourceMessages } from "./i18n/resourceMessages";
import allPhoneMetadata from "libphonenumber-js/metadata.min.json";
import { formatPhonesOfAnyCountry } from "./components/format";
import { accessControlProvider } from "./providers/accessControlProvider";
import { authProvider } from "./providers/authProvider";
import { dataProvider } from "./providers/dataProvider";
import { portalLiveProvider, rtdbAvailable, rtdbDataProvider } from "./providers/dataSources";
import { i18nProvider } from "./providers/i18nProvider";
import { liveProvider } from "./providers/liveProvider";
import { ReloadRequiredBanner } from "./components/switches/ReloadRequiredBanner";
import { MotionPreference } from "./components/MotionPreference";
import { OutageBanner } from "./components/switches/OutageBanner";
import { PortalLayout } from "./components/layout/PortalLayout";
import { useNotificationProvider } from "./providers/notificationProvider";
import { StaffMfaGate } from "./components/StaffMfaGate";
import { ConsentSync } from "./components/switches/ConsentSync";
import { HelpChat } from "./components/switches/HelpChat";
import type { SessionUser } from "./providers/session";
import { DashboardPage } from "./pages/DashboardPage";
import { THIS_WASNT_ME_PATH } from "./resources/accountAlerts";
import { refineResources, resourceRoutes } from "./pages/resourceRoutes";
import { destinationPages } from "./pages/subscriber/destinationPages";
import { portalQueryOptions } from "./providers/queryRetry";

export { preloadDestinationPage } from "./pages/subscriber/destinationPages";

// Pages other than home load with their route, so the signed-in home page waits for none of their code.
const SecurityPage = lazy(() => import("./pages/security/SecurityPage").then((m) => ({ default: m.SecurityPage })));
const ProfilePage = lazy(() => import("./pages/profile/ProfilePage").then((m) => ({ default: m.ProfilePage })));
const ThisWasntMePage = lazy(() =>
  import("./pages/public/ThisWasntMePage").then((m) => ({ default: m.ThisWasntMePage })),
);
const KpiPage = lazy(() => import("./pages/kpis/KpiPage").then((m) => ({ default: m.KpiPage })));
const TopUpPage = lazy(() => import("./pages/money/TopUpPage").then((m) => ({ default: m.TopUpPage })));
const JoinAccountPage = lazy(() =>
  import("./pages/subscriber/JoinAccountPage").then((m) => ({ default: m.JoinAccountPage })),
);
const PeoplePage = lazy(() => import("./pages/subscriber/PeoplePage").then((m) => ({ default: m.PeoplePage })));
// The subscriber app's destinations besides home (components/layout/destinations.ts).
// main.tsx may have started the one a person is headed to before the portal rendered (destinationPages.ts).
const UsagePage = lazy(destinationPages["/usage"]);
const MoneyPage = lazy(destinationPages["/money"]);
const ShopPage = lazy(destinationPages["/shop"]);
const AccountPage = lazy(destinationPages["/account"]);

/** The CRM chat's help button for the signed-in person (a subscriber, in a build with the chat). */
function SignedInHelpChat() {
  const { data: user } = useGetIdentity<SessionUser>();
  return <HelpChat user={user} />;
}

addResourceMessages();
formatPhonesOfAnyCountry(allPhoneMetadata);
const brand = brandOf(runtimeConfig.operator);
// Resources name their source in meta.dataProviderName (pages/resourceRoutes.tsx); Refine routes each call.
const dataProviders: Record<string, typeof dataProvider> & { default: typeof dataProvider } = rtdbAvailable
  ? { default: dataProvider, rtdb: rtdbDataProvider }
  : { default: dataProvider };
const live = portalLiveProvider(liveProvider);
const theme = portalTheme(brand.primary);

/**
 * Signing out loads the light sign-in page afresh (main.tsx serves every signed-out page), which
 * also drops every cached record of the user who left.
 */
const portalAuthProvider: typeof authProvider = {
  ...authProvider,
  async logout() {
    const result = await authProvider.logout();
    window.location.assign("/login");
    return result;
  },
};

/** Session expired inside the portal: hand over to the signed-out pages. */
function ToSignIn() {
  useEffect(() => {
    const path = location.pathname + location.search;
    window.location.replace(path.startsWith("/login") ? "/login" : `/login?to=${encodeURIComponent(path)}`);
  }, []);
  return null;
}

/** A page the reader may not open: its title is the page's heading (the Result's own title is a div). */
function Forbidden() {
  return (
    <Result
      status="403"
      title={<h1 style={{ font: "inherit", color: "inherit", margin: 0 }}>{t("show.forbidden")}</h1>}
      subTitle={t("show.notFound")}
    />
  );
}

/** The signed-in portal: Refine + antd, loaded as its own chunk after the sign-in page. */
export function App() {
  const [locale, setLocaleState] = useState(getLocale());
  useEffect(() => onLocaleChange(setLocaleState), []);
  const resources = useMemo(() => refineResources(), [locale]); // labels follow the language

  return (
    <BrowserRouter>
      {/* antd's dialogs name their close button "Close" in every language unless told otherwise. */}
      <ConfigProvider
        locale={antdLocaleOf(locale)}
        theme={theme}
        modal={{ closable: { "aria-label": t("form.close") } }}
      >
        <MotionPreference>
          <AntdApp>
            <ReloadRequiredBanner />
            <OutageBanner />
            <Refine
              routerProvider={routerProvider}
              dataProvider={dataProviders}
              liveProvider={live}
              authProvider={portalAuthProvider}
              accessControlProvider={accessControlProvider}
              i18nProvider={i18nProvider}
              notificationProvider={useNotificationProvider}
              resources={resources}
              options={{
                syncWithLocation: true,
                warnWhenUnsavedChanges: true,
                disableTelemetry: true,
                liveMode: "auto",
                title: { text: brand.name },
                reactQuery: portalQueryOptions,
              }}
            >
              <Routes>
                <Route
                  element={
                    <Authenticated key="portal" fallback={<ToSignIn />}>
                      <PortalLayout>
                        <ConsentSync />
                        <SignedInHelpChat />
                        <StaffMfaGate>
                          <CanAccess fallback={<Forbidden />}>
                            <Suspense fallback={<Spin style={{ display: "block", margin: 48 }} />}>
                              <Outlet />
                            </Suspense>
                          </CanAccess>
                        </StaffMfaGate>
                      </PortalLayout>
                    </Authenticated>
                  }
                >
                  <Route index element={<DashboardPage />} />
                  {resourceRoutes()}
                  <Route path="security" element={<SecurityPage />} />
                  <Route path="profile" element={<ProfilePage />} />
                  <Route path="kpis" element={<KpiPage />} />
                  <Route path="top-up" element={<TopUpPage />} />
                  <Route path="usage" element={<UsagePage />} />
                  <Route path="money" element={<MoneyPage />} />
                  <Route path="shop" element={<ShopPage />} />
                  <Route path="account" element={<AccountPage />} />
                  <Route path="account/people" element={<PeoplePage />} />
                  <Route path="join-account" element={<JoinAccountPage />} />
                  <Route path="*" element={<ErrorComponent />} />
                </Route>
                <Route path="/login" element={<ToSignIn />} />
                {/* From an account alert in the inbox: the same page as the emailed link, no sign-in needed. */}
                <Route
                  path={THIS_WASNT_ME_PATH}
                  element={
                    <Suspense fallback={<Spin style={{ display: "block", margin: 48 }} />}>
                      <ThisWasntMePage />
                    </Suspense>
                  }
                />
              </Routes>
              <UnsavedChangesNotifier />
              {/* Anew on a change of language: it sets the title only when the address changes. */}
              <DocumentTitleHandler
                key={locale}
                handler={({ resource }) =>
                  `${resource?.meta?.label ?? t("dashboard.title")} · ${t("app.name", { operator: brand.name })}`
                }
              />
            </Refine>
          </AntdApp>
        </MotionPreference>
      </ConfigProvider>
    </BrowserRouter>
  );
}
