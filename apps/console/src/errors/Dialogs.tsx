import { useState, type ReactNode } from "react";
import { Button, Modal } from "react-bootstrap";
import { useTranslation } from "react-i18next";

/** Messages and confirmations: centred, and above another dialog they open over (styles.css). */
const onTop = { centered: true, className: "on-top", backdropClassName: "on-top" } as const;

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
  /** Only its button closes it: no close cross, no Escape, no click beside it. */
  insistent?: boolean;
  /** "lg" (800 px) for a long message: a synchronisation's lines. */
  size?: "lg";
}) {
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
export function ConfirmDialog(props: {
  show: boolean;
  message: string;
  /** What the answer Yes leaves behind, said before it is given (a contract detail's role in the identity manager). */
  note?: string;
  /** What else to know before answering (what a delete would meet: see DeleteConsequences). */
  children?: ReactNode;
  /** Yes cannot be given (something keeps the record); `why` is the id of the sentence saying so. */
  yesDisabled?: boolean;
  why?: string;
  onYes: () => void;
  onNo: () => void;
}) {
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

/** The error dialog of a call that failed: `show()` opens it; `dialog` renders it with its texts. */
export function useFailureDialog() {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const dialog = (message: string, detail?: string, children?: ReactNode, size?: "lg") => (
    <MessageDialog
      show={failed}
      title={t("common.errorTitle")}
      message={message}
      detail={detail}
      onClose={() => setFailed(false)}
      size={size}
    >
      {children}
    </MessageDialog>
  );
  return { show: () => setFailed(true), dialog };
}

/**
 * A delete asked first and reported when it fails: `ask()` opens the Yes/No (`asking` while it is
 * open); Yes runs the delete (a mutation call, given the error callback to pass on), and its
 * failure opens the error dialog. `dialogs` renders both, with the texts of the thing deleted and
 * what the delete would meet (`consequences`; `blocked` disables Yes, `why` names the sentence).
 */
export function useConfirmedDelete(run: (callbacks: { onError: () => void }) => void) {
  const [confirming, setConfirming] = useState(false);
  const failure = useFailureDialog();
  const dialogs = (text: {
    confirm: string;
    note?: string;
    failed: string;
    detail?: string;
    consequences?: ReactNode;
    blocked?: boolean;
    why?: string;
  }) => (
    <>
      <ConfirmDialog
        show={confirming}
        message={text.confirm}
        note={text.note}
        yesDisabled={text.blocked}
        why={text.why}
        onYes={() => {
          setConfirming(false);
          run({ onError: failure.show });
        }}
        onNo={() => setConfirming(false)}
      >
        {text.consequences}
      </ConfirmDialog>
      {failure.dialog(text.failed, text.detail)}
    </>
  );
  return { ask: () => setConfirming(true), asking: confirming, dialogs };
}
