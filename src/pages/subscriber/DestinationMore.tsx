import { useGetIdentity } from "@refinedev/core";
import { useNavigate } from "react-router";
import type { SessionUser } from "../../providers/session";
import DestinationTasks, { type DestinationTasksProps } from "./DestinationTasks";

/** A destination's "More" inside the portal: DestinationTasks with the portal's signed-in person and router. */
export function DestinationMore(props: Omit<DestinationTasksProps, "user" | "navigate">) {
  const { data: user } = useGetIdentity<SessionUser>();
  const navigate = useNavigate();
  return <DestinationTasks {...props} user={user} navigate={(to) => void navigate(to)} />;
}
