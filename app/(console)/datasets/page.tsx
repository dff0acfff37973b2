import { PageHeader } from "@/components/ui/page-header.tsx";
import { DatasetsList } from "./datasets-list.tsx";

export const metadata = { title: "Datasets" };

export default function DatasetsPage() {
  return (
    <>
      <PageHeader title="Datasets" description="Named sets of traces of one trace function. Replays can select a dataset; its graders re-run over all its traces." />
      <DatasetsList />
    </>
  );
}
