"use client";
// The console's links. Next.js's <Link> prefetches a route as soon as the link scrolls into view. Every
// console page is rendered per request (its layout checks the session), so each link in view cost the server
// a render and the database a session lookup on every page load: eight for the sidebar, one more per trace
// in view on the traces list, all while the page's own data was being read (bench/README.md, "Session 11").
// These links prefetch when the pointer or the focus reaches them, which is still ahead of the click.
import NextLink from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps } from "react";

/** Next.js's Link without its `prefetch` choice: these always prefetch on intent. */
export function Link({ href, onMouseEnter, onFocus, onTouchStart, ...props }: Omit<ComponentProps<typeof NextLink>, "prefetch">) {
  const router = useRouter();
  const prefetch = () => {
    if (typeof href === "string" && href.startsWith("/")) router.prefetch(href);
  };
  return (
    <NextLink
      {...props}
      href={href}
      prefetch={false}
      onMouseEnter={(e) => { prefetch(); onMouseEnter?.(e); }}
      onFocus={(e) => { prefetch(); onFocus?.(e); }}
      onTouchStart={(e) => { prefetch(); onTouchStart?.(e); }}
    />
  );
}
