// Turns a tRPC error into a sentence for people: validation issues name the field in words
// ("Check value must be a valid regular expression.") instead of the raw input path.
type ErrorLike = { message: string; data?: unknown } | null | undefined;
type Issue = { path?: string | null; message: string };

function issuesOf(error: ErrorLike): Issue[] {
  const data = error?.data as { issues?: unknown } | null | undefined;
  return Array.isArray(data?.issues) ? (data.issues as Issue[]).filter((i) => typeof i?.message === "string") : [];
}

/** "assertion.check.value" → "Check value"; list indexes become "item 2". */
function fieldLabel(path: string): string {
  const parts = path.split(".").filter(Boolean);
  const words = parts
    .slice(-2)
    .map((p) => (/^\d+$/.test(p) ? `item ${Number(p) + 1}` : p.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase()))
    .filter((w, i, all) => !(all.length > 1 && i === 0 && ["input", "config", "assertion", "body"].includes(w)));
  const label = words.join(" ");
  return label.charAt(0).toUpperCase() + label.slice(1);
}

function sentence(issue: Issue): string {
  const message = issue.message.trim();
  const end = /[.!?]$/.test(message) ? "" : ".";
  if (!issue.path) return `${message.charAt(0).toUpperCase()}${message.slice(1)}${end}`;
  const label = fieldLabel(issue.path);
  // "must be …", "is required" read on from the field's name; other messages follow a colon.
  return /^[a-z]/.test(message) ? `${label} ${message}${end}` : `${label}: ${message}${end}`;
}

export function humanErrorMessage(error: ErrorLike): string {
  if (!error) return "Unknown error.";
  if ((error.data as { code?: unknown } | null | undefined)?.code === "SERVICE_UNAVAILABLE") return "Database unreachable, retrying…";
  const issues = issuesOf(error);
  if (issues.length > 0) return issues.slice(0, 3).map(sentence).join(" ");
  return error.message;
}

export function isNotFound(error: ErrorLike): boolean {
  const data = error?.data as { code?: unknown } | null | undefined;
  return data?.code === "NOT_FOUND";
}
