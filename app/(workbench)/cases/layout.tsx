// The case pages' client data layer (react-query), mounted here rather than in the root layout.
import { Providers } from "@/components/providers";

export default function CasesLayout({ children }: { children: React.ReactNode }) {
  return <Providers>{children}</Providers>;
}
