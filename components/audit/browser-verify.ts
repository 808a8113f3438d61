// Checks an inclusion proof file in the browser with WebCrypto only (SHA-256 and Ed25519), independently of the
// server: the entry's content → entry hash → leaf → Merkle path (RFC 9162 §2.1.3.2) → the signed root → the Ed25519
// signature under the public key. The same checks as lib/domain/ledger-proof.ts (a unit test runs both on the same
// files), without node:crypto so it can ship to the client.
import { canonicalJson } from "@/lib/domain/canonical-json";

export interface BrowserCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface BrowserProofReport {
  ok: boolean;
  /** False when this browser lacks WebCrypto Ed25519 (or a secure context): the signature could not be checked here. */
  signatureCheckedHere: boolean;
  keyId: string | null;
  checks: BrowserCheck[];
}

interface ProofFileShape {
  format?: unknown;
  type?: unknown;
  entry?: {
    seq?: unknown;
    prevHash?: unknown;
    entryHash?: unknown;
    kind?: unknown;
    createdAt?: unknown;
    payload?: unknown;
    hiddenItems?: unknown;
  };
  leafIndex?: unknown;
  treeSize?: unknown;
  leafHash?: unknown;
  path?: unknown;
  checkpoint?: { treeSize?: unknown; rootHash?: unknown; time?: unknown; keyId?: unknown; signature?: unknown };
  publicKey?: unknown;
}

const HEX64 = /^[0-9a-f]{64}$/;
const isHash = (v: unknown): v is string => typeof v === "string" && HEX64.test(v);
const isSize = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function bytesToHex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(data: Uint8Array): Promise<string> {
  return bytesToHex(await crypto.subtle.digest("SHA-256", data as BufferSource));
}

async function nodeHash(left: string, right: string): Promise<string> {
  const input = new Uint8Array(65);
  input[0] = 1;
  input.set(hexToBytes(left), 1);
  input.set(hexToBytes(right), 33);
  return sha256(input);
}

async function leafHashOf(entryHash: string): Promise<string> {
  const input = new Uint8Array(33);
  input.set(hexToBytes(entryHash), 1);
  return sha256(input);
}

/** RFC 9162 §2.1.3.2. */
async function rootFromPath(index: number, size: number, leaf: string, path: string[]): Promise<string | null> {
  if (index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = await nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = await nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

function pemToDer(pem: string): Uint8Array {
  const b64 = pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function checkpointMessageText(c: { treeSize: number; rootHash: string; time: string; keyId: string }): string {
  return `casegraph.ledger/v1\n${c.treeSize}\n${c.rootHash}\n${c.time}\n${c.keyId}\n`;
}

/**
 * `serverCheckedEntryHash`: the server's verdict on the entry hash over the FULL stored entry, used when the file's
 * entry was redacted for this reviewer (entry.hiddenItems > 0) and so cannot be re-hashed here.
 */
export async function verifyInclusionInBrowser(
  input: unknown,
  trustedPublicKeyPem?: string,
  serverCheckedEntryHash?: boolean,
): Promise<BrowserProofReport> {
  const checks: BrowserCheck[] = [];
  const f = (input ?? {}) as ProofFileShape;
  if (typeof crypto === "undefined" || !crypto.subtle) {
    return {
      ok: false,
      signatureCheckedHere: false,
      keyId: null,
      checks: [{ name: "webcrypto", ok: false, detail: "this page is not a secure context (https or localhost)" }],
    };
  }
  const e = f.entry ?? {};
  const entryOk =
    f.format === "casegraph.ledger-proof/v1" &&
    f.type === "inclusion" &&
    typeof e.seq === "number" &&
    Number.isSafeInteger(e.seq) &&
    e.seq >= 1 &&
    isHash(e.prevHash) &&
    isHash(e.entryHash) &&
    typeof e.kind === "string" &&
    typeof e.createdAt === "string" &&
    e.payload !== undefined;
  const redacted = typeof e.hiddenItems === "number" && e.hiddenItems > 0;
  let hashOk = false;
  if (entryOk && redacted) {
    hashOk = serverCheckedEntryHash === true;
    checks.push({
      name: "entry hash",
      ok: hashOk,
      detail: hashOk
        ? "checked on the server over the full entry (some ids are outside your permissions)"
        : "the server could not confirm the entry hash",
    });
  } else {
    if (entryOk) {
      const body = canonicalJson({ seq: e.seq, kind: e.kind, createdAt: e.createdAt, payload: e.payload });
      hashOk = (await sha256(new TextEncoder().encode((e.prevHash as string) + body))) === e.entryHash;
    }
    checks.push({
      name: "entry hash",
      ok: hashOk,
      detail: hashOk ? "the entry's content hashes to its entry hash" : "the entry's content does not hash to its entry hash",
    });
  }

  const leafOk =
    hashOk && f.leafIndex === (e.seq as number) - 1 && isHash(f.leafHash) && f.leafHash === (await leafHashOf(e.entryHash as string));
  checks.push({ name: "leaf", ok: leafOk, detail: leafOk ? `leaf ${f.leafIndex}` : "leaf index or hash does not match the entry" });

  const cp = f.checkpoint ?? {};
  const cpShape =
    isSize(cp.treeSize) &&
    isHash(cp.rootHash) &&
    typeof cp.time === "string" &&
    typeof cp.keyId === "string" &&
    typeof cp.signature === "string";
  const sizeOk = cpShape && cp.treeSize === f.treeSize;
  checks.push({ name: "tree size", ok: sizeOk, detail: sizeOk ? `${f.treeSize} entries` : "the proof's tree size is not the signed one" });

  const path = Array.isArray(f.path) && f.path.every(isHash) ? (f.path as string[]) : null;
  const root =
    leafOk && sizeOk && path && isSize(f.leafIndex) && isSize(f.treeSize)
      ? await rootFromPath(f.leafIndex, f.treeSize, f.leafHash as string, path)
      : null;
  const pathOk = root !== null && root === cp.rootHash;
  checks.push({
    name: "merkle path",
    ok: pathOk,
    detail: pathOk ? `${path!.length} hashes lead to the signed root` : "the path does not lead to the signed root",
  });

  // Signature: WebCrypto Ed25519 (Chromium ≥ 137, Firefox ≥ 129, Safari ≥ 17).
  const pem = trustedPublicKeyPem ?? (typeof f.publicKey === "string" ? f.publicKey : null);
  let signatureCheckedHere = false;
  let keyId: string | null = null;
  let sigOk = false;
  let sigDetail = "no public key";
  if (pem && cpShape) {
    try {
      const der = pemToDer(pem);
      keyId = (await sha256(der)).slice(0, 16);
      const key = await crypto.subtle.importKey("spki", der as BufferSource, { name: "Ed25519" }, false, ["verify"]);
      signatureCheckedHere = true;
      const msg = new TextEncoder().encode(
        checkpointMessageText(cp as { treeSize: number; rootHash: string; time: string; keyId: string }),
      );
      const sig = pemToDer(cp.signature as string);
      sigOk = cp.keyId === keyId && (await crypto.subtle.verify({ name: "Ed25519" }, key, sig as BufferSource, msg as BufferSource));
      sigDetail = sigOk
        ? `Ed25519, key ${keyId}, signed ${cp.time}`
        : cp.keyId !== keyId
          ? "signed by another key"
          : "signature does not verify";
    } catch {
      sigDetail = "this browser cannot check Ed25519 signatures";
    }
  }
  checks.push({ name: "checkpoint signature", ok: sigOk, detail: sigDetail });
  return { ok: checks.every((c) => c.ok), signatureCheckedHere, keyId, checks };
}
