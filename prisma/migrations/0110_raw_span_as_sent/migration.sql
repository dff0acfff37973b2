-- A span's raw document is kept as the text that was sent (json, not jsonb): jsonb reorders an object's keys
-- (shorter first), so the console showed payloads in an order nobody sent (docs/console.md, "Trace page").
-- Ingestion also stops building a binary document per span; every read of raw_span uses -> and ->>, which
-- json has too. Documents already stored keep the order jsonb gave them.
ALTER TABLE "spans" ALTER COLUMN "raw_span" TYPE json USING "raw_span"::json;
-- A type change resets the column's storage to the type's default: keep large documents out of line,
-- uncompressed, as before.
ALTER TABLE "spans" ALTER COLUMN "raw_span" SET STORAGE EXTERNAL;
