import type { ComponentType } from "react";
import type { Subscriber } from "../../../resources/subscribers";

/** One section of the subscriber 360: a title and a component that loads its own data when first opened. */
export interface SubscriberSection {
  key: string;
  /** i18n key of the section title. */
  title: string;
  Component: ComponentType<{ subscriber: Subscriber }>;
  /** Open when the page opens (the others load when the agent opens them). */
  open?: boolean;
}

/** Rows per page in every section. */
export const SECTION_PAGE_SIZE = 10;
