import { Button, Result } from "antd";
import { useNavigate } from "react-router";
import { translate as t } from "../../i18n";

/** A subscriber's line, bill or order that is not there (or not theirs): said once, with the way back Home. */
export function NotThere() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t("show.notFound")}
      extra={
        <Button type="primary" onClick={() => void navigate("/")}>
          {t("show.backHome")}
        </Button>
      }
    />
  );
}
