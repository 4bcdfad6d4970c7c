import { Alert, Card } from "react-bootstrap";
import { useTranslation } from "react-i18next";

/** workspaces.index. Workspaces themselves arrive with the workspaces issue; until then the list is empty. */
export function WorkspacesPage() {
  const { t } = useTranslation();
  return (
    <Card>
      <Card.Header>
        <h1 className="h5 mb-0">{t("workspaces.title")}</h1>
      </Card.Header>
      <Card.Body>
        <Alert variant="info" className="mb-0">
          {t("workspaces.none")}
        </Alert>
      </Card.Body>
    </Card>
  );
}
