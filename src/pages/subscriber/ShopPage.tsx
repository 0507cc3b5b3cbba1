import { useGetIdentity } from "@refinedev/core";
import { useNavigate, useSearchParams } from "react-router";
import type { SessionUser } from "../../providers/session";
import AddLineCard from "./AddLineCard";
import { DestinationMore } from "./DestinationMore";
import { ShopDialogs } from "./ShopDialogs";
import { shopPath, ShopView } from "./ShopView";

/** Shop inside the portal: the same page the light pages draw on a phone, with its dialogs opened by the address. */
export function ShopPage() {
  const { data: user } = useGetIdentity<SessionUser>();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const go = (to: string) => void navigate(to);
  return (
    <ShopView
      navigate={go}
      lineId={search.get("line") ?? undefined}
      dialogs={(line) => (
        <ShopDialogs
          line={line}
          search={search}
          close={() => void navigate(line ? shopPath(line.id) : "/shop", { replace: true })}
        />
      )}
      addLine={user?.role === "subscriber" && <AddLineCard uid={user.uid} navigate={go} />}
      more={<DestinationMore place="shop" drawn={["plans", "add-ons"]} />}
    />
  );
}
