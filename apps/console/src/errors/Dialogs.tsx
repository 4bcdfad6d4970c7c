import type { ReactNode } from "react";
import { Button, Modal } from "react-bootstrap";
import { useTranslation } from "react-i18next";

/** A message dialog (error, success, information) with one button. Focus moves into it. */
export function MessageDialog(props: {
  show: boolean;
  title: string;
  message: string;
  detail?: string;
  onClose: () => void;
  button?: string;
  /** More content below the message (what an auto-discover added). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal show={props.show} onHide={props.onClose} centered aria-labelledby="message-dialog-title">
      <Modal.Header closeButton closeLabel={t("common.close")}>
        <Modal.Title id="message-dialog-title" className="h5">
          {props.title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">{props.message}</p>
        {props.detail && <p className="mt-2 mb-0 text-body-secondary">{props.detail}</p>}
        {props.children}
      </Modal.Body>
      <Modal.Footer>
        <Button onClick={props.onClose} autoFocus>
          {props.button ?? t("common.close")}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

/** The Yes/No confirmation asked before every delete. */
export function ConfirmDialog(props: {
  show: boolean;
  message: string;
  onYes: () => void;
  onNo: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal show={props.show} onHide={props.onNo} centered aria-labelledby="confirm-dialog-title">
      <Modal.Header>
        <Modal.Title id="confirm-dialog-title" className="h5">
          {t("common.confirmTitle")}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{props.message}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={props.onNo} autoFocus>
          {t("common.no")}
        </Button>
        <Button variant="danger" onClick={props.onYes}>
          {t("common.yes")}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
