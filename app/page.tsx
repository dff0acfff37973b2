export default function Home() {
  return (
    <main>
      <h1>Reprise</h1>
      <p>The console is coming. The API lives under /api/sdk/.</p>
    </main>
  );
}
