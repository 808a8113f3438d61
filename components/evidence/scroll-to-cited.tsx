"use client";
// Scrolls the cited passage of a text document into view when the viewer opens (issue 17).
import { useEffect } from "react";

export function ScrollToCited() {
  useEffect(() => {
    document.querySelector("[data-testid='cited-passage']")?.scrollIntoView({ block: "center" });
  }, []);
  return null;
}
