import { useList } from "@refinedev/core";
import { useNavigate } from "react-router";
import { BellLink } from "./BellLink";

/** The portal header's bell: how many notices are unread (kept live by Refine), and the way to the inbox. */
export function NotificationBell() {
  const navigate = useNavigate();
  const { result } = useList({
    resource: "notifications",
    filters: [{ field: "read", operator: "eq", value: false }],
    pagination: { currentPage: 1, pageSize: 1 },
  });
  return <BellLink unread={result?.total ?? 0} navigate={(to) => void navigate(to)} />;
}
