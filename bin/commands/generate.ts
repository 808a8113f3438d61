import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { generateBundleChunks } from "../../lib/workspace/generate";
import { UsageError, type Command } from "../command";

export default {
  name: "generate",
  usage:
    "  generate --nodes N --evidence M [--edges E] [--seed S] [--case <id>] --out <file>\n" +
    "                                        write a synthetic case for scale tests",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        nodes: { type: "string" },
        evidence: { type: "string" },
        edges: { type: "string" },
        seed: { type: "string" },
        case: { type: "string" },
        out: { type: "string" },
      },
    });
    const nodes = Number(values.nodes),
      evidence = Number(values.evidence);
    if (!values.out || !(nodes > 0) || !(evidence >= 0)) throw new UsageError("generate needs --nodes N --evidence M --out <file>");
    const out = createWriteStream(values.out);
    for (const chunk of generateBundleChunks({
      nodes,
      evidence,
      edges: values.edges ? Number(values.edges) : undefined,
      seed: values.seed ? Number(values.seed) : 1,
      caseId: values.case,
    })) {
      if (!out.write(chunk)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    console.log(JSON.stringify({ ok: true, out: values.out, nodes, evidence }));
    return 0;
  },
} satisfies Command;
