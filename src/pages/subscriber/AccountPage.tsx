import { useGetIdentity } from "@refinedev/core";
import { useNavigate } from "react-router";
import type { SessionUser } from "../../providers/session";
import { accountMore, AccountView } from "./AccountView";
import { DestinationMore } from "./DestinationMore";

/** Account inside the portal: the same page the light pages draw on a phone, with the portal's router. */
export function AccountPage() {
  const { data: user } = useGetIdentity<SessionUser>();
  const navigate = useNavigate();
  return (
    <AccountView
      user={user}
      navigate={(to) => void navigate(to)}
      more={<DestinationMore place="account" extra={accountMore()} />}
    />
  );
}
