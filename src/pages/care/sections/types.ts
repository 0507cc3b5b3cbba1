import type { ComponentType } from "react";
import type { ResourceDefinition } from "../../../resources/define";
import type { Subscriber } from "../../../resources/subscribers";

/** One section of the subscriber 360: a title and a component that loads its own data when first opened. */
export interface SubscriberSection {
  key: string;
  /** i18n key of the section title. */
  title: string;
  Component: ComponentType<{ subscriber: Subscriber }>;
  /** Open when the page opens (the others load when the agent opens them). */
  open?: boolean;
  /** The resource the section lists, when only some staff may (the audit trail is the admins'): hidden from the others. */
  resource?: Pick<ResourceDefinition, "access">;
}

/** Rows per page in every section. */
export const SECTION_PAGE_SIZE = 10;
