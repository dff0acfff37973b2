// Reads of who an API key acts as: its organization, its user and the organization's members.
import type { DbClient } from "../db/client.ts";

export const selectApiKeyContext = (db: DbClient, apiKeyId: string) =>
  db.prisma.apiKey.findUnique({
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

export const selectMembers = (db: DbClient, organizationId: string) =>
  db.prisma.user.findMany({ where: { organizationId }, select: { id: true, email: true, name: true }, orderBy: [{ email: "asc" }] });
