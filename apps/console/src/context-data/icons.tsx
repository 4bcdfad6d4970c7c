/** Small inline icons of the context-data screens (drawn here: emoji glyphs are missing from many system fonts). */
const svg = { width: 14, height: 14, viewBox: "0 0 16 16", "aria-hidden": true } as const;
const stroke = { fill: "none", stroke: "currentColor", strokeWidth: 1.6, strokeLinecap: "round" } as const;

export function ClockIcon() {
  return (
    <svg {...svg} {...stroke}>
      <circle cx="8" cy="8" r="6.5" />
      <path d="M8 4v4l2.5 2" />
    </svg>
  );
}

export function CheckIcon() {
  return (
    <svg {...svg} {...stroke} strokeWidth={2}>
      <path d="M3 8.5l3 3 7-7" />
    </svg>
  );
}

export function CrossIcon() {
  return (
    <svg {...svg} {...stroke} strokeWidth={2}>
      <path d="M4 4l8 8M12 4l-8 8" />
    </svg>
  );
}

export function PlusIcon() {
  return (
    <svg {...svg} {...stroke} strokeWidth={2}>
      <path d="M8 3v10M3 8h10" />
    </svg>
  );
}

export function LinkIcon() {
  return (
    <svg {...svg} {...stroke}>
      <path d="M6.5 9.5l3-3" />
      <path d="M7 4.5l1.2-1.2a2.8 2.8 0 0 1 4 4L11 8.5M9 11.5l-1.2 1.2a2.8 2.8 0 0 1-4-4L5 7.5" />
    </svg>
  );
}

export function BellIcon() {
  return (
    <svg {...svg} {...stroke}>
      <path d="M4 11V7a4 4 0 0 1 8 0v4l1.5 1.5h-11z" />
      <path d="M6.5 14h3" />
    </svg>
  );
}

export function MapIcon() {
  return (
    <svg {...svg} {...stroke}>
      <path d="M8 14.5s-4.5-4.2-4.5-7.5a4.5 4.5 0 0 1 9 0c0 3.3-4.5 7.5-4.5 7.5z" />
      <circle cx="8" cy="7" r="1.6" />
    </svg>
  );
}

export function TransferIcon() {
  return (
    <svg {...svg} {...stroke}>
      <path d="M2.5 5h10l-2.5-2.5M13.5 11h-10l2.5 2.5" />
    </svg>
  );
}
