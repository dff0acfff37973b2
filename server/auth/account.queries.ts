// Reads of who an API key acts as: its organization, its user and the organization's members.
import type { Prisma } from "../db/client.ts";

type Db = Pick<Prisma, "apiKey" | "user" | "organization">;

export const selectApiKeyContext = (db: Db, apiKeyId: string) =>
  db.apiKey.findUnique({
    where: { id: apiKeyId },
    select: {
      id: true,
      name: true,
      prefix: true,
      createdAt: true,
      organization: { select: { id: true, name: true } },
      user: { select: { id: true, email: true, name: true } },
    },
  });

export const selectMembers = (db: Db, organizationId: string) =>
  db.user.findMany({ where: { organizationId }, select: { id: true, email: true, name: true }, orderBy: [{ email: "asc" }] });
