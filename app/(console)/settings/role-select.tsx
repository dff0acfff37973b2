// The roles a person can be given, in the order the console lists them (docs/operations.md, "Roles and API key scopes").
export const ROLE_CHOICES = ["viewer", "member", "admin", "owner"] as const;
export type TRoleChoice = (typeof ROLE_CHOICES)[number];
