// The console's places, in one list: the sidebar and the not-found page both offer every one of them.
export const CONSOLE_NAV = [
  { href: "/dashboard", label: "Dashboard" },
  { href: "/traces", label: "Traces" },
  { href: "/datasets", label: "Datasets" },
  { href: "/assertions", label: "Assertions" },
  { href: "/review", label: "Review" },
  { href: "/graders", label: "Graders" },
  { href: "/sim-plan", label: "Sim plan" },
  { href: "/replays", label: "Replays" },
  { href: "/alerts", label: "Alerts" },
  { href: "/prices", label: "Model prices" },
  { href: "/audit", label: "Audit log" },
  { href: "/settings", label: "Settings" },
] as const;
