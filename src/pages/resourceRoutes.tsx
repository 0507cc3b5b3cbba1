import { createElement } from "react";
import type { ResourceProps } from "@refinedev/core";
import { Route } from "react-router";
import { resources } from "../resources";
import { pageResources } from "../providers/accessControlProvider";
import type { ResourceDefinition } from "../resources/define";
import { translate as t } from "../i18n";
import { icons } from "../components/icons";
import { ResourceListPage } from "./ResourceListPage";
import { ResourceShowPage } from "./ResourceShowPage";

/** Refine's resources, derived from the registry (never written twice). */
export function refineResources(): ResourceProps[] {
  return [
    { name: "dashboard", list: "/", meta: { label: t("dashboard.title"), icon: createElement(icons.HomeOutlined!) } },
    ...[...resources, ...pageResources].map((r: ResourceDefinition<any, any>) => ({
      name: r.name,
      list: `/${r.name}`,
      show: resources.includes(r as never) ? `/${r.name}/show/:id` : undefined,
      meta: { label: t(r.label), icon: icons[r.icon] ? createElement(icons[r.icon]!) : undefined, dataProviderName: r.source === "rtdb" ? "rtdb" : "default" },
    })),
    { name: "security", list: "/security", meta: { label: t("security.title"), icon: createElement(icons.SafetyOutlined!) } },
  ];
}

/** The routes of every declared resource, from the same registry. */
export function resourceRoutes() {
  return resources.map((r: ResourceDefinition<any, any>) => (
    <Route key={r.name} path={r.name}>
      <Route index element={<ResourceListPage resource={r} />} />
      <Route path="show/:id" element={<ResourceShowPage resource={r} />} />
    </Route>
  ));
}
