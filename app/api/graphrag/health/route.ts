import { checkHealth } from "@/lib/server/runtime/health";

export const dynamic = "force-dynamic";

/** Public liveness/readiness: reports dependency status only, never data. */
export async function GET() {
  const health = await checkHealth();
  return Response.json(health, { status: health.status === "healthy" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
