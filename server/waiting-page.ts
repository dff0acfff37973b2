// The page the console shows while the server starts and its database is not there yet (server/http-server.ts):
// self-contained (no script, no asset Next.js would have to serve), and it reloads itself.

const MESSAGES = {
  connecting: "Reprise is starting and connecting to its database.",
  unreachable: "Reprise is starting, and is waiting for its database, which does not answer yet. It keeps trying.",
} as const;

export function waitingPage(database: keyof typeof MESSAGES): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="5">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reprise is starting</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:20vh auto;padding:0 1rem;color:#1f2937}h1{font-size:1.25rem}</style>
</head>
<body>
<main>
<h1>Reprise is starting</h1>
<p role="status">${MESSAGES[database]}</p>
<p>This page reloads every few seconds.</p>
</main>
</body>
</html>
`;
}
