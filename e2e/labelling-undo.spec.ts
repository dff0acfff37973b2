// Undo that keeps work in the labelling queue (docs/console.md, "Labelling queue"): a key pressed while the
// queue is still being built is refused with a message, never dropped in silence nor applied to a trace not
// yet shown; undo goes back to the last verdict with its note back in the field, and a note typed on a trace
// but not yet recorded is still there when the labeller comes back to it.
import { expect, signIn, test } from "./fixtures.ts";
import { seedTrace } from "./seed.ts";

const FN = "queue-undo-note";

test("a key pressed while the queue loads is refused visibly; undo keeps the typed note", async ({ page, api }) => {
  test.setTimeout(180_000);
  for (let i = 1; i <= 3; i++) {
    await seedTrace(api, { traceFunctionKey: FN, name: `Undo question ${i}`, spans: [{ name: FN, startMs: 0, endMs: 100, input: [`undo question ${i}`], output: `answer ${i}` }] });
  }
  const ids = ((await (await api.get(`/api/sdk/traces?traceFunctionKey=${FN}&limit=10`)).json()).traces as { id: string }[]).map((t) => t.id);
  const verdict = async (id: string) => {
    const labels = (await (await api.get(`/api/sdk/traces/labels?traceIds=${id}`)).json()).labels as { label: boolean | null; annotation: string | null }[];
    return labels[0] ?? { label: null, annotation: null };
  };

  await signIn(page);
  // Hold the queue's snapshot until released, so the key below always lands while it loads.
  let release = () => {};
  const held = new Promise<void>((resolve) => { release = resolve; });
  await page.route(/traces\.queue/, async (route) => { await held; await route.continue(); });
  // The snapshot is asked for once the page is interactive (hydrated, its keys listened to).
  const asked = page.waitForRequest(/traces\.queue/);
  await page.goto(`/traces/queue?fn=${FN}`);
  await asked;
  await expect(page.getByText("Building the queue")).toBeVisible();
  await page.keyboard.press("p");
  const refused = page.getByText("The queue is still loading: “P” did nothing");
  await expect(refused).toBeVisible();
  release();
  const progress = page.getByTestId("queue-progress");
  await expect(progress).toContainText("1 of 3");
  await expect(refused).toHaveCount(0);
  // Nothing was recorded for the refused key.
  expect((await verdict(ids[0]!)).label).toBeNull();

  // Trace 1: a note, then F. Trace 2: a note typed but not recorded. U goes back to trace 1 with its note.
  const note = page.getByLabel("Note (optional)");
  await note.fill("cites the wrong policy");
  await page.keyboard.press("Escape");
  await page.keyboard.press("f");
  await expect(progress).toContainText("2 of 3");
  await expect(note).toHaveValue("");
  await note.fill("draft about trace two");
  await page.keyboard.press("Escape");
  await page.keyboard.press("u");
  await expect(progress).toContainText("1 of 3");
  await expect(note).toHaveValue("cites the wrong policy");
  await expect.poll(async () => (await verdict(ids[0]!)).label).toBeNull();

  // Recording again keeps the note (edited), and trace 2 still has its draft.
  await note.fill("cites the wrong refund policy");
  await page.keyboard.press("Control+Shift+Enter");
  await expect(progress).toContainText("2 of 3");
  await expect(note).toHaveValue("draft about trace two");
  await expect.poll(async () => verdict(ids[0]!)).toEqual(expect.objectContaining({ label: false, annotation: "cites the wrong refund policy" }));
});
