import type { DeclaredResource } from "./declaredResource";
import { DeleteButton, EditButton, ListButton, Show } from "@refinedev/antd";
import { useGetIdentity, useResourceParams, useShow } from "@refinedev/core";
import { Card, Descriptions, Grid, Result, Space } from "antd";
import { useParams } from "react-router";
import { translate as t } from "../i18n";
import { FieldValue } from "../components/FieldValue";
import { actionApplies, RecordActions } from "../components/actions/RecordActions";
import type { ActionSpec } from "../resources/define";
import { RecordDownloads } from "../components/actions/RecordDownloads";
import { RecordHistory } from "../components/RecordHistory";
import type { SessionUser } from "../providers/session";
import { drawnWhenNotFound } from "../components/notFoundDrawn";
import { can } from "../resources/access";
import { PageTitle } from "../components/PageTitle";
import type { CSSProperties } from "react";
import "./recordHeader.css";

const WRAPPING_ROW: CSSProperties = { display: "flex", flexWrap: "wrap", gap: 8, whiteSpace: "normal" };

/** One record of any declared resource: the fields its declaration lists for `show`, its named actions, edit and delete. */
export function ResourceShowPage({ resource }: { resource: DeclaredResource }) {
  const { id } = useParams();
  const { query, result } = useShow<Record<string, unknown>>({
    resource: resource.name,
    id,
    errorNotification: drawnWhenNotFound,
  });
  const screens = Grid.useBreakpoint();
  const { data: user } = useGetIdentity<SessionUser>();
  const subscriber = user?.role === "subscriber";
  // Its edit page is what the routes registered (resourceRoutes.tsx), asked of Refine (see ResourceListPage).
  const { resource: registered } = useResourceParams({ resource: resource.name });

  if (query.isError) {
    const status = query.error?.statusCode;
    return (
      <Result
        status={status === 403 ? "403" : "404"}
        title={t("show.notFound")}
        subTitle={status && status !== 404 ? query.error?.message : undefined}
      />
    );
  }

  const title = result ? (
    <FieldValue name={resource.recordTitle} spec={resource.fields[resource.recordTitle]} record={result} />
  ) : (
    t(resource.label)
  );
  return (
    <Show
      isLoading={query.isLoading}
      title={<PageTitle>{title}</PageTitle>}
      // The header's back arrow nests a button in a role=button (axe: nested-interactive); the breadcrumb and List go back.
      goBack={false}
      canEdit={Boolean(registered?.edit)}
      canDelete={Boolean(resource.access.delete)}
      // On a phone the actions get a card of full-width buttons below the record; wider, they sit in the header.
      // A subscriber's own record: no breadcrumbs and no Refresh (live updates keep it current), only the way back.
      breadcrumb={subscriber ? false : undefined}
      // The title keeps its row and the buttons wrap beneath it (recordHeader.css): a line's dozen
      // actions ran past a 1366 px screen, the header's extra being white-space: nowrap.
      headerProps={{ className: "record-header" }}
      headerButtons={({ defaultButtons, listButtonProps, editButtonProps, deleteButtonProps }) => (
        <>
          {screens.md && (
            // Each button its own item of a wrapping row: in one item of Refine's Space they stayed one line.
            <div className="record-header__actions" data-testid="record-header-actions" style={WRAPPING_ROW}>
              <RecordDownloads resource={resource} record={result as never} />
              <RecordActions resource={resource} record={result as never} />
            </div>
          )}
          {subscriber ? (
            <>
              {listButtonProps && <ListButton {...listButtonProps} />}
              {editButtonProps && <EditButton {...editButtonProps} />}
              {deleteButtonProps && <DeleteButton {...deleteButtonProps} />}
            </>
          ) : (
            defaultButtons
          )}
        </>
      )}
    >
      {result && (
        <Descriptions column={screens.md ? 2 : 1} bordered size="small">
          {resource.show.map((name: string) => (
            <Descriptions.Item key={name} label={t(resource.fields[name]?.label ?? name)}>
              <FieldValue name={name} spec={resource.fields[name]} record={result} />
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
      {result &&
        !screens.md &&
        // No empty card once nothing can be done (a cancelled policy): only while an action's state allows
        // it and the reader's role may run it (a subscriber's contact request: "Mark as done" is care's).
        (Object.entries<ActionSpec>(resource.actions ?? {}).some(
          ([name, action]) => actionApplies(action, result as never) && can(user, resource, name),
        ) ||
          Boolean(resource.downloads?.length)) && (
          <Card size="small" title={t("actions.title")} style={{ marginTop: 16 }}>
            <Space direction="vertical" style={{ width: "100%" }}>
              <RecordDownloads resource={resource} record={result as never} block />
              <RecordActions resource={resource} record={result as never} block />
            </Space>
          </Card>
        )}
      {result && id && <RecordHistory resource={resource} id={id} />}
    </Show>
  );
}
