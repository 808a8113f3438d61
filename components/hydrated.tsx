"use client";
// Marks the document once React has hydrated it (html[data-hydrated]), so browser tests wait for the page to be
// interactive instead of sleeping; nothing in the app reads it.
import { useEffect } from "react";

export function Hydrated() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return null;
}
