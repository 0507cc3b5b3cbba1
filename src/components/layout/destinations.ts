import HomeOutlined from "@ant-design/icons-svg/es/asn/HomeOutlined";
import BarChartOutlined from "@ant-design/icons-svg/es/asn/BarChartOutlined";
import WalletOutlined from "@ant-design/icons-svg/es/asn/WalletOutlined";
import ShoppingOutlined from "@ant-design/icons-svg/es/asn/ShoppingOutlined";
import UserOutlined from "@ant-design/icons-svg/es/asn/UserOutlined";
import type { IconDefinition } from "@ant-design/icons-svg/es/types";
import type { Destination } from "../../resources/define";

/**
 * The subscriber app's five places, as carriers' own apps have them: each a page of tasks in
 * everyday words. Resources declare which one lists them (`subscriberPlace`); staff keep the menu of
 * every resource.
 */
export interface DestinationSpec {
  key: Destination;
  path: string;
  /** i18n key of the tab's label. */
  label: string;
  icon: IconDefinition;
}

export const DESTINATION_SPECS: readonly DestinationSpec[] = [
  { key: "home", path: "/", label: "destinations.home", icon: HomeOutlined },
  { key: "usage", path: "/usage", label: "destinations.usage", icon: BarChartOutlined },
  { key: "money", path: "/money", label: "destinations.money", icon: WalletOutlined },
  { key: "shop", path: "/shop", label: "destinations.shop", icon: ShoppingOutlined },
  { key: "account", path: "/account", label: "destinations.account", icon: UserOutlined },
];

/**
 * The destination a path belongs to: its own page, or the place that leads to it (a bill belongs to
 * Money, a line to Home). Pages reached from a task keep that task's tab lit.
 */
const PATH_PLACES: readonly [RegExp, Destination][] = [
  [/^\/(usage|usage-records)(\/|$)/, "usage"],
  [/^\/(money|top-up|invoices|payment-methods|ledger-entries|top-ups|accounts)(\/|$)/, "money"],
  [/^\/(shop|plans|add-ons)(\/|$)/, "shop"],
  [
    /^\/(account|profile|security|notifications|tickets|contact-requests|privacy-requests|device-claims|orders)(\/|$)/,
    "account",
  ],
];

export function destinationOf(pathname: string): Destination {
  return PATH_PLACES.find(([pattern]) => pattern.test(pathname))?.[1] ?? "home";
}

/** Below this width subscribers get the bottom tab bar; above it a short sider. */
export const TAB_BAR_MEDIA = "(max-width: 767.98px)";
