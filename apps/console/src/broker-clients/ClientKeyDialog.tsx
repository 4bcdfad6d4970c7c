import { Alert, Button, Modal } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import { CopyButton } from "../resources/CopyButton.tsx";
import { curlExample } from "./curlExample.ts";
import "texts:broker-clients";

/**
 * A broker client's key, shown once (after its create and after New key): the key with a copy
 * button, the sentence that it will not be shown again, and a curl call that uses it. Only its
 * button closes it; then the key is gone from the page.
 */
export function ClientKeyDialog(props: {
  clientKey: string | undefined;
  name: string;
  tenants: readonly string[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const key = props.clientKey ?? "";
  const example = curlExample(key, props.tenants, window.location.origin);
  return (
    <Modal
      show={props.clientKey !== undefined}
      onHide={props.onClose}
      aria-labelledby="client-key-title"
      size="lg"
      centered
      backdrop="static"
      keyboard={false}
    >
      <Modal.Header>
        <Modal.Title id="client-key-title" className="h5">
          {t("brokerClients.keyTitle", { name: props.name })}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Alert variant="warning">{t("brokerClients.keyOnce")}</Alert>
        <p className="mb-1 fw-semibold">{t("brokerClients.keyLabel")}</p>
        <p className="d-flex align-items-center">
          <code className="text-break user-select-all" data-testid="client-key">
            {key}
          </code>
          <CopyButton text={key} label={t("brokerClients.copyKey")} />
        </p>
        <p className="mb-1 fw-semibold">
          {t("brokerClients.tryIt")}
          <CopyButton text={example} label={t("brokerClients.copyExample")} />
        </p>
        <pre className="bg-body-tertiary p-2 small text-break" style={{ whiteSpace: "pre-wrap" }}>
          {example}
        </pre>
        <p className="small text-body-secondary mb-0">{t("brokerClients.exampleType")}</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={props.onClose} autoFocus>
          {t("brokerClients.keyCopied")}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
