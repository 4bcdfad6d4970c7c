import { Button, Modal } from "react-bootstrap";
import { useTranslation } from "../i18n/index.ts";
import type { ConfirmDialogProps, MessageDialogProps } from "./dialogProps.ts";

/**
 * The dialogs' react-bootstrap modals, loaded with the first dialog a screen opens (Dialogs.tsx),
 * not with every screen's first load (bench/console).
 */

/** Messages and confirmations: centred, and above another dialog they open over (styles.css). */
const onTop = { centered: true, className: "on-top", backdropClassName: "on-top" } as const;

/** A message dialog (error, success, information) with one button. Focus moves into it. */
export function MessageModal(props: MessageDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      show={props.show}
      onHide={props.onClose}
      aria-labelledby="message-dialog-title"
      size={props.size}
      {...onTop}
      {...(props.insistent ? { backdrop: "static" as const, keyboard: false } : {})}
    >
      <Modal.Header closeButton={!props.insistent} closeLabel={t("common.close")}>
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
export function ConfirmModal(props: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    // Scrollable: a long list of what keeps a record (a workspace's contents) leaves No and Yes in view.
    <Modal show={props.show} onHide={props.onNo} aria-labelledby="confirm-dialog-title" scrollable {...onTop}>
      <Modal.Header>
        <Modal.Title id="confirm-dialog-title" className="h5">
          {t("common.confirmTitle")}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {props.message}
        {props.note && <p className="small text-body-secondary mt-2 mb-0">{props.note}</p>}
        {props.children}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={props.onNo} autoFocus>
          {t("common.no")}
        </Button>
        <Button
          variant="danger"
          onClick={props.onYes}
          disabled={props.yesDisabled}
          aria-describedby={props.yesDisabled ? props.why : undefined}
        >
          {t("common.yes")}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
