import { useState } from "react";
import { useCan } from "@refinedev/core";
import { Button, Dropdown } from "antd";
import { meets, type ActionSpec, type ResourceDefinition } from "../../resources/define";
import { failedAllowedIf, type ExpressionContext } from "../../resources/expressions/declaration";
import { translate as t } from "../../i18n";
import { useExpressionContext } from "../forms/expressionContext";
import { ActionDialog } from "./ActionDialog";

type AnyRecord = Record<string, unknown> & { id: string };

/**
 * Whether the record is in a state the action allows (the server checks the same `when`) and, given
 * the action's resource, name and the viewer's expression context, meets each of its `allowedIf` rules.
 */
export const actionApplies = (
  action: ActionSpec,
  record: AnyRecord,
  allowed?: { resource: ResourceDefinition; name: string; ctx: ExpressionContext | undefined },
) =>
  meets(action.when, record) &&
  (!allowed ||
    !action.allowedIf?.length ||
    // Until the viewer is known, a rule that may be about them is not taken as met.
    (allowed.ctx !== undefined && !failedAllowedIf(allowed.resource, allowed.name, record, allowed.ctx).length));

function ActionButton({
  resource,
  name,
  action,
  record,
  block,
}: {
  resource: ResourceDefinition;
  name: string;
  action: ActionSpec;
  record: AnyRecord;
  block?: boolean;
}) {
  const { data: access } = useCan({ resource: resource.name, action: name, params: { id: record.id } });
  const ctx = useExpressionContext();
  const [open, setOpen] = useState(false);
  if (!access?.can || !actionApplies(action, record, { resource, name, ctx })) return null;
  return (
    <>
      <Button danger={action.danger} block={block} onClick={() => setOpen(true)}>
        {t(action.label)}
      </Button>
      <ActionDialog
        resource={resource}
        name={name}
        action={action}
        record={record}
        open={open}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** One entry of the "More actions" menu: shown only when the viewer may run it and the record allows it. */
function ActionMenuItem({
  resource,
  name,
  action,
  record,
  onPick,
}: {
  resource: ResourceDefinition;
  name: string;
  action: ActionSpec;
  record: AnyRecord;
  onPick: (name: string) => void;
}) {
  const { data: access } = useCan({ resource: resource.name, action: name, params: { id: record.id } });
  const ctx = useExpressionContext();
  if (!access?.can || !actionApplies(action, record, { resource, name, ctx })) return null;
  return (
    <li role="none">
      <Button
        role="menuitem"
        type="text"
        block
        danger={action.danger}
        style={{ justifyContent: "flex-start" }}
        onClick={() => onPick(name)}
      >
        {t(action.label)}
      </Button>
    </li>
  );
}

/**
 * The actions not named primary, behind one "More actions" button (a desk row stays one line wide at
 * 1280 px however many actions a record has); the picked one opens its dialog outside the menu.
 */
function MoreActions({
  resource,
  record,
  names,
}: {
  resource: ResourceDefinition;
  record: AnyRecord;
  names: readonly string[];
}) {
  const actions = resource.actions ?? {};
  const [menuOpen, setMenuOpen] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  const pickedAction = picked ? actions[picked] : undefined;
  return (
    <>
      <Dropdown
        trigger={["click"]}
        open={menuOpen}
        onOpenChange={setMenuOpen}
        popupRender={() => (
          <ul className="ant-dropdown-menu" role="menu" aria-label={t("actions.more")} style={{ padding: 4 }}>
            {names.map((name) => (
              <ActionMenuItem
                key={name}
                resource={resource}
                name={name}
                action={actions[name]!}
                record={record}
                onPick={(chosen) => {
                  setMenuOpen(false);
                  setPicked(chosen);
                }}
              />
            ))}
          </ul>
        )}
      >
        <Button aria-haspopup="menu">{t("actions.more")}</Button>
      </Dropdown>
      {picked && pickedAction && (
        <ActionDialog
          resource={resource}
          name={picked}
          action={pickedAction}
          record={record}
          open
          onClose={() => setPicked(null)}
        />
      )}
    </>
  );
}

/**
 * The declared named actions of one record, each shown only when the viewer may run it and the
 * record allows it. With `primary`, only those are buttons and the others wait under "More actions";
 * with `only`, those are buttons and the others are not offered here.
 */
export function RecordActions({
  resource,
  record,
  block,
  primary,
  only,
}: {
  resource: ResourceDefinition;
  record: AnyRecord | undefined;
  block?: boolean;
  primary?: readonly string[];
  only?: readonly string[];
}) {
  if (!record) return null;
  const all = Object.entries<ActionSpec>(resource.actions ?? {});
  const chosen = only ?? primary;
  const buttons = chosen ? all.filter(([name]) => chosen.includes(name)) : all;
  const rest = primary && !only ? all.filter(([name]) => !primary.includes(name)).map(([name]) => name) : [];
  return (
    <>
      {buttons.map(([name, action]) => (
        <ActionButton key={name} resource={resource} name={name} action={action} record={record} block={block} />
      ))}
      {rest.length > 0 && <MoreActions resource={resource} record={record} names={rest} />}
    </>
  );
}
