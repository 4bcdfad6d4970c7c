import { useEffect, useState, useSyncExternalStore } from "react";
import { Toast, ToastContainer } from "react-bootstrap";
import { useTranslation } from "react-i18next";

interface Note {
  id: number;
  message: string;
}

let notes: Note[] = [];
let next = 1;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((l) => l());

/** Success feedback after a create, update, delete or import: a short note in the corner, read by screen readers. */
export function notify(message: string): void {
  notes = [...notes, { id: next++, message }];
  changed();
}

const dismiss = (id: number) => {
  notes = notes.filter((n) => n.id !== id);
  changed();
};

function Note({ note }: { note: Note }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(true);
  useEffect(() => {
    if (!shown) dismiss(note.id);
  }, [shown, note.id]);
  return (
    <Toast show={shown} onClose={() => setShown(false)} delay={4000} autohide bg="success">
      <Toast.Header closeLabel={t("common.close")}>
        <strong className="me-auto">{t("common.successTitle")}</strong>
      </Toast.Header>
      <Toast.Body className="text-white">{note.message}</Toast.Body>
    </Toast>
  );
}

/** Where the notes appear (once, in the signed-in layout). */
export function Toasts() {
  const shown = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => notes,
  );
  return (
    <ToastContainer position="bottom-end" className="p-3 position-fixed" role="status" aria-live="polite">
      {shown.map((note) => (
        <Note key={note.id} note={note} />
      ))}
    </ToastContainer>
  );
}
