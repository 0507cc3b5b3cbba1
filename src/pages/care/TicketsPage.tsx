import { useGetIdentity } from "@refinedev/core";
import { isStaff } from "../../resources/access";
import type { SessionUser } from "../../providers/session";
import { HelpPage } from "./HelpPage";
import { TicketQueue } from "./TicketQueue";

/** /tickets: care's queue for staff; the help page (ask, and follow your requests) for subscribers. */
export default function TicketsPage() {
  const { data: user } = useGetIdentity<SessionUser>();
  if (!user) return null;
  return isStaff(user.role) ? <TicketQueue /> : <HelpPage />;
}
