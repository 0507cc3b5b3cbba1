import { useState } from "react";
import { useCan } from "@refinedev/core";
import { Button } from "antd";
import { meets, type ActionSpec, type ResourceDefinition } from "../../resources/define";
import { translate as t } from "../../i18n";
import { ActionDialog } from "./ActionDialog";

type AnyRecord = Record<string, unknown> & { id: string };

/** Whether the record is in a state the action allows (the server checks the same `when`). */
export const actionApplies = (action: ActionSpec, record: AnyRecord) => meets(action.when, record);

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
  const [open, setOpen] = useState(false);
  if (!access?.can || !actionApplies(action, record)) return null;
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

/** The declared named actions of one record, each shown only when the viewer may run it and the record allows it. */
export function RecordActions({
  resource,
  record,
  block,
}: {
  resource: ResourceDefinition;
  record: AnyRecord | undefined;
  block?: boolean;
}) {
  if (!record) return null;
  return (
    <>
      {Object.entries<ActionSpec>(resource.actions ?? {}).map(([name, action]) => (
        <ActionButton key={name} resource={resource} name={name} action={action} record={record} block={block} />
      ))}
    </>
  );
}
