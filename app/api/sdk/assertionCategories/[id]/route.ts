import { deleteCategory, getCategory } from "@/server/assertions/categories/categories.http.ts";
import { routeMethods } from "@/server/http/methods.http.ts";

export const dynamic = "force-dynamic";
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: getCategory, DELETE: deleteCategory });
