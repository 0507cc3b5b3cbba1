import { lazy, Suspense, useEffect, useState, type ComponentProps } from "react";
import { whenIdle } from "../whenIdle";

const ActionDialog = lazy(() => import("./ActionDialog").then((m) => ({ default: m.ActionDialog })));
const load = () => void import("./ActionDialog").catch(() => undefined); // the press asks again

/**
 * ActionDialog for a page whose first paint shows only the button that opens it (Shop's plans, Add a
 * line): the dialog's form, pickers and re-authentication (antd's form and date picker among them)
 * load once the page is idle, not with it. Mounted from the first opening on, as ActionDialog is
 * where it is imported directly (a result is read in it after the action).
 */
export function LazyActionDialog(props: ComponentProps<typeof ActionDialog>) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true); // state adjusted while rendering, as React advises over an effect
  useEffect(() => whenIdle(load), []);
  if (!opened && !props.open) return null;
  return (
    <Suspense fallback={null}>
      <ActionDialog {...props} />
    </Suspense>
  );
}
