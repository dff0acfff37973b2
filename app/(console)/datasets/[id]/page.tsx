import { DatasetView } from "./dataset-view.tsx";

export const metadata = { title: "Dataset" };

export default async function DatasetPage({ params }: { params: Promise<{ id: string }> }) {
  return <DatasetView id={(await params).id} />;
}
