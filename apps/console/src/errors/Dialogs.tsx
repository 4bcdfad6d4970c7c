import { lazy, Suspense, useState, type ReactNode } from "react";
import type { ConfirmDialogProps, MessageDialogProps } from "./dialogProps.ts";
import { useTranslation } from "../i18n/index.ts";

// The modals (react-bootstrap's Modal, its transitions and focus management) load with the first
// dialog opened: every screen has dialogs (the session's expiry), few open one.
const MessageModal = lazy(() => import("./DialogModals.tsx").then((m) => ({ default: m.MessageModal })));
const ConfirmModal = lazy(() => import("./DialogModals.tsx").then((m) => ({ default: m.ConfirmModal })));

/** Whether a dialog was ever shown: from then on it stays mounted, so that it closes with its transition. */
function useShownOnce(show: boolean): boolean {
  const [shown, setShown] = useState(show);
  if (show && !shown) setShown(true);
  return shown || show;
}

/** A message dialog (error, success, information) with one button. Focus moves into it. */
export function MessageDialog(props: MessageDialogProps) {
  return useShownOnce(props.show) ? (
    <Suspense fallback={null}>
      <MessageModal {...props} />
    </Suspense>
  ) : null;
}

/** The Yes/No confirmation asked before every delete. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return useShownOnce(props.show) ? (
    <Suspense fallback={null}>
      <ConfirmModal {...props} />
    </Suspense>
  ) : null;
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
