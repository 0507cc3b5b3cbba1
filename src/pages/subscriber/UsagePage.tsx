import { useNavigate } from "react-router";
import { DestinationMore } from "./DestinationMore";
import { UsageView } from "./UsageView";

/** Usage inside the portal: the same page the light pages draw on a phone, with the portal's router. */
export function UsagePage() {
  const navigate = useNavigate();
  return <UsageView navigate={(to) => void navigate(to)} more={<DestinationMore place="usage" />} />;
}
