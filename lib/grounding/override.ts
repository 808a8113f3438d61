// Signed operator overrides (issue 15, seed 004 §8). A token releases ONE held answer of the review queue (one the
// answer policies escalated, or one drafted from expired evidence) and nothing else: it names the request or review id,
// the action, an expiry and a nonce, and is Ed25519-signed by a key the deployment lists in
// CASEGRAPH_OVERRIDE_PUBLIC_KEYS. Token: base64url(canonical JSON claims) "." base64url(signature of the first part).
// Checks run in a fixed order so each refusal has its own code: form (020), signature (021), scope (024), expiry (022);
// replay (023) needs the store and is checked by the adapter, in the transaction that records the use.
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from "node:crypto";
import { canonicalJson } from "../domain/canonical-json";
import { CasegraphError } from "../domain/failure-codes";

export const OVERRIDE_ACTIONS = ["release"] as const;
export type OverrideAction = (typeof OVERRIDE_ACTIONS)[number];

export interface OverrideClaims {
  v: 1;
  /** The request id (or review id) the token releases. */
  request: string;
  action: OverrideAction;
  /** ISO-8601. */
  expiresAt: string;
  /** 32 hex characters; a token is accepted once. */
  nonce: string;
  /** Which configured key signed it (first 16 hex of the SHA-256 of its raw public key). */
  keyId: string;
}

const b64u = (b: Buffer | string) => Buffer.from(b).toString("base64url");

export function keyIdOf(key: KeyObject): string {
  const der = (key.type === "private" ? createPublicKey(key) : key).export({ format: "der", type: "spki" });
  return createHash("sha256").update(der).digest("hex").slice(0, 16);
}

export function readPrivateKey(pem: string): KeyObject {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== "ed25519") throw new Error("not ed25519");
    return key;
  } catch (err) {
    throw new CasegraphError("CG-GROUND-027", undefined, [], { cause: err });
  }
}

/**
 * CASEGRAPH_OVERRIDE_PUBLIC_KEYS: Ed25519 public keys, as PEM blocks or base64 SPKI DER, separated by commas or
 * whitespace. A value that is not such a key is an error (a typo must not silently disable a key).
 */
export function parsePublicKeys(raw: string | undefined): KeyObject[] {
  if (!raw || !raw.trim()) return [];
  const pems = raw.match(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g) ?? [];
  const rest = raw
    .replace(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g, " ")
    .split(/[\s,]+/)
    .filter(Boolean);
  const keys: KeyObject[] = [];
  for (const item of [...pems, ...rest]) {
    try {
      const key = item.startsWith("-----")
        ? createPublicKey(item)
        : createPublicKey({ key: Buffer.from(item, "base64"), format: "der", type: "spki" });
      if (key.asymmetricKeyType !== "ed25519") throw new Error("not ed25519");
      keys.push(key);
    } catch (err) {
      throw new CasegraphError("CG-SYS-003", "CASEGRAPH_OVERRIDE_PUBLIC_KEYS holds a value that is not an Ed25519 public key.", [], {
        cause: err,
      });
    }
  }
  return keys;
}

export function issueOverride(
  privateKey: KeyObject,
  p: { request: string; action: OverrideAction; expiresAt: Date; nonce?: string },
): string {
  const claims: OverrideClaims = {
    v: 1,
    request: p.request,
    action: p.action,
    expiresAt: p.expiresAt.toISOString(),
    nonce: p.nonce ?? randomBytes(16).toString("hex"),
    keyId: keyIdOf(privateKey),
  };
  const body = b64u(canonicalJson(claims));
  return `${body}.${b64u(sign(null, Buffer.from(body), privateKey))}`;
}

export function tokenSha256(token: string): string {
  return createHash("sha256").update(token.trim()).digest("hex");
}

/** The claims, if the token is well-formed (CG-GROUND-020 otherwise). Says nothing about its signature. */
export function parseOverride(token: string): { claims: OverrideClaims; body: string; signature: Buffer } {
  const m = /^([A-Za-z0-9_-]{1,4000})\.([A-Za-z0-9_-]{40,200})$/.exec(token.trim());
  if (!m) throw new CasegraphError("CG-GROUND-020");
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(m[1], "base64url").toString("utf8"));
  } catch {
    throw new CasegraphError("CG-GROUND-020");
  }
  const c = claims as Partial<OverrideClaims>;
  const ok =
    c &&
    typeof c === "object" &&
    c.v === 1 &&
    typeof c.request === "string" &&
    c.request.length > 0 &&
    c.request.length <= 200 &&
    (OVERRIDE_ACTIONS as readonly string[]).includes(c.action as string) &&
    typeof c.expiresAt === "string" &&
    !Number.isNaN(Date.parse(c.expiresAt)) &&
    typeof c.nonce === "string" &&
    /^[0-9a-f]{32}$/.test(c.nonce) &&
    typeof c.keyId === "string" &&
    Object.keys(c).length === 6;
  if (!ok) throw new CasegraphError("CG-GROUND-020");
  return { claims: c as OverrideClaims, body: m[1], signature: Buffer.from(m[2], "base64url") };
}

/**
 * Everything but replay: form, signature by a configured key, scope (the request and action it is applied to), expiry.
 */
export function verifyOverride(
  token: string,
  keys: readonly KeyObject[],
  target: { request: string; action: OverrideAction },
  now: Date,
): OverrideClaims {
  if (!keys.length) throw new CasegraphError("CG-GROUND-025");
  const { claims, body, signature } = parseOverride(token);
  const signedBy = keys.find((k) => {
    try {
      return verify(null, Buffer.from(body), k, signature);
    } catch {
      return false;
    }
  });
  if (!signedBy) throw new CasegraphError("CG-GROUND-021");
  if (claims.request !== target.request || claims.action !== target.action) throw new CasegraphError("CG-GROUND-024");
  if (Date.parse(claims.expiresAt) <= now.getTime()) throw new CasegraphError("CG-GROUND-022");
  return claims;
}
