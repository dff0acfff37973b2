// The labelling queue: the ids of the trace list page last shown, so the trace page's "next" shortcut
// walks them in order (kept in sessionStorage: per tab, gone when the tab closes).
const KEY = "reprise.traceQueue";

export function saveQueue(ids: string[]) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(ids));
  } catch {
    // Storage disabled: the shortcut falls back to the list.
  }
}

export function nextInQueue(currentId: string): string | null {
  try {
    const ids = JSON.parse(sessionStorage.getItem(KEY) ?? "[]") as string[];
    const i = ids.indexOf(currentId);
    return i >= 0 && i + 1 < ids.length ? ids[i + 1]! : null;
  } catch {
    return null;
  }
}
