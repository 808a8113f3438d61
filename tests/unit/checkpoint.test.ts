import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  checkpointMessage,
  checkpointProblem,
  generateSigningKey,
  keyIdOf,
  parsePublicKey,
  parseSigningKey,
  publicKeyOf,
  signCheckpoint,
  verifyCheckpoint,
} from "@/lib/domain/checkpoint";

const root = "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328";
const time = "2026-11-21T10:00:00.000Z";

describe("signed checkpoints", () => {
  const generated = generateSigningKey();
  const privateKey = parseSigningKey(generated.privateKeyPem);
  const publicKey = parsePublicKey(generated.publicKeyPem);

  it("sign → verify with the public key alone; the message is the documented text", () => {
    const cp = signCheckpoint({ treeSize: 8, rootHash: root, time }, privateKey);
    expect(cp.keyId).toBe(generated.keyId);
    expect(cp.keyId).toBe(keyIdOf(publicKey));
    expect(checkpointMessage(cp)).toBe(`casegraph.ledger/v1\n8\n${root}\n${time}\n${cp.keyId}\n`);
    expect(checkpointProblem(cp, publicKey)).toBeNull();
    // Ed25519 is deterministic: the same checkpoint signs to the same bytes (exports stay byte-identical).
    expect(signCheckpoint({ treeSize: 8, rootHash: root, time }, privateKey).signature).toBe(cp.signature);
  });

  test.prop([fc.nat({ max: 4 }), fc.nat()], { numRuns: 100 })("changing any signed field breaks the signature", (field, n) => {
    const cp = signCheckpoint({ treeSize: 1000, rootHash: root, time }, privateKey);
    const forged = { ...cp };
    if (field === 0) forged.treeSize = cp.treeSize + 1 + (n % 1000);
    if (field === 1) forged.rootHash = ((parseInt(root[0], 16) + 1 + (n % 15)) % 16).toString(16) + root.slice(1);
    if (field === 2) forged.time = new Date(Date.parse(time) + 1 + (n % 100_000)).toISOString();
    if (field === 3) {
      const sig = Buffer.from(cp.signature, "base64");
      sig[n % sig.length] ^= 1 << (n % 8);
      forged.signature = sig.toString("base64");
    }
    if (field === 4) forged.signature = signCheckpoint({ treeSize: 999, rootHash: root, time }, privateKey).signature;
    expect(checkpointProblem(forged, publicKey)).toBe("bad_signature");
  });

  it("another key's checkpoint is refused by keyId, and a relabelled one by signature", () => {
    const other = generateKeyPairSync("ed25519");
    const cp = signCheckpoint({ treeSize: 3, rootHash: root, time }, other.privateKey);
    expect(checkpointProblem(cp, publicKey)).toBe("unknown_key");
    expect(checkpointProblem({ ...cp, keyId: keyIdOf(publicKey) }, publicKey)).toBe("bad_signature");
    expect(verifyCheckpoint(cp, other.publicKey)).toBe(true);
  });

  it("malformed checkpoints are refused before any crypto", () => {
    const cp = signCheckpoint({ treeSize: 3, rootHash: root, time }, privateKey);
    for (const bad of [
      null,
      "x",
      { ...cp, treeSize: -1 },
      { ...cp, treeSize: 1.5 },
      { ...cp, rootHash: root.toUpperCase() },
      { ...cp, rootHash: root.slice(2) },
      { ...cp, time: "2026-11-21" },
      { ...cp, keyId: "abc" },
      { ...cp, signature: "!!" },
    ]) {
      expect(checkpointProblem(bad, publicKey)).toBe("malformed");
    }
    expect(() => signCheckpoint({ treeSize: 3, rootHash: "nope", time }, privateKey)).toThrow();
  });

  it("keys load from PEM or base64 DER and must be Ed25519", () => {
    const der = createPrivateKey(generated.privateKeyPem).export({ format: "der", type: "pkcs8" }).toString("base64");
    expect(keyIdOf(publicKeyOf(parseSigningKey(der)))).toBe(generated.keyId);
    const spki = publicKey.export({ format: "der", type: "spki" }).toString("base64");
    expect(keyIdOf(parsePublicKey(spki))).toBe(generated.keyId);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
    expect(() => parseSigningKey(rsa.privateKey.export({ format: "pem", type: "pkcs8" }).toString())).toThrow(/Ed25519/);
    expect(() => parseSigningKey("not a key")).toThrow();
    expect(() => parsePublicKey(generated.privateKeyPem)).toThrow();
  });
});
