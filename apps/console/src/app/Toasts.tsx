import { useEffect, useSyncExternalStore } from "react";
import { useTranslation } from "../i18n/index.ts";

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

/** How long a note stays. */
const SHOWN_MS = 4000;

/**
 * Bootstrap's toast markup, as react-bootstrap's Toast writes it, without its weight (its fade
 * transition) on every screen's first load (bench/console).
 */
function Note({ note }: { note: Note }) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(() => dismiss(note.id), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [note.id]);
  return (
    <div className="toast show bg-success" role="alert" aria-live="assertive" aria-atomic="true">
      <div className="toast-header">
        <strong className="me-auto">{t("common.successTitle")}</strong>
        <button
          type="button"
          className="btn-close"
          aria-label={t("common.close")}
          onClick={() => dismiss(note.id)}
        />
      </div>
      <div className="toast-body text-white">{note.message}</div>
    </div>
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
    <div className="toast-container bottom-0 end-0 p-3 position-fixed" role="status" aria-live="polite">
      {shown.map((note) => (
        <Note key={note.id} note={note} />
      ))}
    </div>
  );
}
