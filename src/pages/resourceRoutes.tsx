import type { DeclaredResource } from "./declaredResource";
import { createElement, lazy, Suspense } from "react";
import type { ResourceProps } from "@refinedev/core";
import { Spin } from "antd";
import { Route } from "react-router";
import { resources } from "../resources";
import { servable } from "../providers/dataSources";
import type { View } from "../resources/define";
import { hasPage, resourceViews, type ResourceViews, type ViewComponent, type ViewLoader } from "./resourceViews";
import { translate as t } from "../i18n";
import { iconOf, icons } from "../components/icons";

/**
 * Declared resources this build can serve with pages (rtdb ones only when a database is configured;
 * grouped ones, like presence, are followed by the pages that use them and have no page of their own).
 */
const portalResources = () => (resources as readonly DeclaredResource[]).filter((r) => servable(r) && !r.rtdb?.groupBy);

/** Refine's resources, derived from the registry (never written twice). */
export function refineResources(): ResourceProps[] {
  return [
    { name: "dashboard", list: "/", meta: { label: t("dashboard.title"), icon: createElement(icons.HomeOutlined!) } },
    ...portalResources().map((r) => ({
      name: r.name,
      list: `/${r.name}`,
      show: `/${r.name}/show/:id`,
      create: hasPage(r, "create") ? `/${r.name}/create` : undefined,
      edit: hasPage(r, "edit") ? `/${r.name}/edit/:id` : undefined,
      meta: {
        label: t(r.label),
        icon: createElement(iconOf(r.icon)),
        canDelete: Boolean(r.access.delete),
        dataProviderName: r.source === "rtdb" ? "rtdb" : "default",
        hide: r.menu === false,
      },
    })),
    {
      name: "profile",
      list: "/profile",
      meta: { label: t("profile.title"), icon: createElement(icons.UserOutlined!) },
    },
    {
      name: "security",
      list: "/security",
      meta: { label: t("security.title"), icon: createElement(icons.SafetyOutlined!) },
    },
    { name: "kpis", list: "/kpis", meta: { label: t("kpis.title"), icon: createElement(icons.LineChartOutlined!) } },
    // The subscriber app's destinations: subscribers reach them by the tab bar, never the staff menu.
    ...(["usage", "money", "shop", "account"] as const).map((name) => ({
      name,
      list: `/${name}`,
      meta: { label: t(`destinations.${name}`), hide: true },
    })),
  ];
}

// The generic pages load with their route: tables, forms and date pickers stay off the home page's
// critical path (it renders from the App chunk alone).
const ResourceListPage = lazy(() => import("./ResourceListPage").then((m) => ({ default: m.ResourceListPage })));
const ResourceShowPage = lazy(() => import("./ResourceShowPage").then((m) => ({ default: m.ResourceShowPage })));
const ResourceFormPage = lazy(() => import("./ResourceFormPage").then((m) => ({ default: m.ResourceFormPage })));

export const genericViews: Record<View, ViewComponent> = {
  list: ResourceListPage,
  show: ResourceShowPage,
  create: (props) => <ResourceFormPage {...props} action="create" />,
  edit: (props) => <ResourceFormPage {...props} action="edit" />,
};

/** The resource's own page for one view (src/pages/resourceViews.ts, loaded on demand), or the generic page. */
const custom = new Map<ViewLoader, ViewComponent>();
export function viewOf(resource: DeclaredResource, view: View, views: ResourceViews = resourceViews): ViewComponent {
  const load = views[resource.name]?.[view];
  if (!load) return genericViews[view];
  // One lazy component per page, not one per render.
  if (!custom.has(load)) custom.set(load, lazy(load));
  return custom.get(load)!;
}

export function ViewRoute({
  resource,
  view,
  views,
}: {
  resource: DeclaredResource;
  view: View;
  /** The pages that replace generic views; the portal's own map unless a test gives another. */
  views?: ResourceViews;
}) {
  const Page = viewOf(resource, view, views);
  return (
    <Suspense fallback={<Spin style={{ display: "block", margin: 48 }} />}>
      {/* eslint-disable-next-line react-hooks/static-components -- viewOf hands back one cached component per page, never a new one */}
      <Page resource={resource} />
    </Suspense>
  );
}

/** The routes of every declared resource, from the same registry. */
export function resourceRoutes() {
  return portalResources().map((r) => (
    <Route key={r.name} path={r.name}>
      <Route index element={<ViewRoute resource={r} view="list" />} />
      <Route path="show/:id" element={<ViewRoute resource={r} view="show" />} />
      {hasPage(r, "create") && <Route path="create" element={<ViewRoute resource={r} view="create" />} />}
      {hasPage(r, "edit") && <Route path="edit/:id" element={<ViewRoute resource={r} view="edit" />} />}
    </Route>
  ));
}
