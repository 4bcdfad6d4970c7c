import type { ReactNode } from "react";

/** What the message and confirmation dialogs are given (Dialogs.tsx, their modals DialogModals.tsx). */
export interface MessageDialogProps {
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
}

export interface ConfirmDialogProps {
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
}
