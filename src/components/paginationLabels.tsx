import type { ReactNode } from "react";
import { LeftOutlined, RightOutlined } from "@ant-design/icons";
import { translate as t } from "../i18n";

/**
 * antd's pagination names its arrow buttons by their icons ("left", "right", in English whatever the
 * page's language): the arrows here are named in words ("Previous page", "Página anterior"). Pass as
 * a pagination's `itemRender`; rc-pagination still disables them at either end.
 */
export function namedPageArrows(_page: number, type: string, element: ReactNode): ReactNode {
  if (type !== "prev" && type !== "next") return element;
  return (
    <button
      type="button"
      className="ant-pagination-item-link"
      aria-label={t(type === "prev" ? "list.previousPage" : "list.nextPage")}
    >
      {type === "prev" ? <LeftOutlined aria-hidden /> : <RightOutlined aria-hidden />}
    </button>
  );
}
