import { Badge, Table, TBody, THead, Td, Th, Tr } from "@/components/ui";
import { RevokeTokenButton } from "./token-forms";

export interface TokenView {
  id: string;
  name: string;
  prefix: string;
  userEmail: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  createdBy: string | null;
  status: "active" | "expired" | "revoked";
}

const fmt = (d: Date | null) => (d ? d.toISOString().replace("T", " ").slice(0, 16) + " UTC" : "never");

export function TokenTable({ tokens, showUser = true, own = false }: { tokens: TokenView[]; showUser?: boolean; own?: boolean }) {
  if (!tokens.length) return <p className="text-sm text-slate-500">No tokens.</p>;
  return (
    <Table data-testid="tokens-table">
      <THead>
        <Tr>
          <Th>Token</Th>
          {showUser ? <Th>User</Th> : null}
          <Th>Created</Th>
          <Th>Expires</Th>
          <Th>Last used</Th>
          <Th>Status</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </Tr>
      </THead>
      <TBody>
        {tokens.map((t) => (
          <Tr key={t.id} data-testid={`token-row-${t.id}`}>
            <Td>
              <div className="font-medium">{t.name}</div>
              <code className="text-xs text-slate-500">{t.prefix}…</code>
            </Td>
            {showUser ? <Td className="text-xs">{t.userEmail}</Td> : null}
            <Td className="text-xs">
              {fmt(t.createdAt)}
              <div className="text-slate-500">{t.createdBy ?? ""}</div>
            </Td>
            <Td className="text-xs">{fmt(t.expiresAt)}</Td>
            <Td className="text-xs">{fmt(t.lastUsedAt)}</Td>
            <Td>
              {t.status === "active" ? (
                <Badge tone="green">active</Badge>
              ) : t.status === "expired" ? (
                <Badge tone="amber">expired</Badge>
              ) : (
                <Badge tone="red">revoked</Badge>
              )}
            </Td>
            <Td>{t.status === "active" ? <RevokeTokenButton token={t} own={own} /> : null}</Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
