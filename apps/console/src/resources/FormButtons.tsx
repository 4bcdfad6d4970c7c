import { Button } from "react-bootstrap";
import { Link } from "react-router";
import { useTranslation } from "../i18n/index.ts";

/** A form's submit button and, beside it, Cancel: back to where the form was opened from, nothing saved. */
export function FormButtons({
  label,
  busy,
  cancel,
}: {
  label: string;
  busy?: boolean;
  /** Where Cancel leads (a path), or what it does. */
  cancel?: string | (() => void);
}) {
  const { t } = useTranslation();
  return (
    <div className="d-flex gap-2">
      <Button type="submit" disabled={busy}>
        {label}
      </Button>
      {typeof cancel === "string" ? (
        <Link to={cancel} className="btn btn-outline-secondary">
          {t("common.cancel")}
        </Link>
      ) : (
        cancel && (
          <Button variant="outline-secondary" onClick={cancel}>
            {t("common.cancel")}
          </Button>
        )
      )}
    </div>
  );
}
