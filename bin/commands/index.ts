// Every CLI command, in the order `casegraph` lists them. A static list (not a directory scan) so the CLI can be
// bundled once (scripts/build-cli.mjs) and start without transpiling anything.
import type { Command } from "../command";
import ask from "./ask";
import audit from "./audit";
import db from "./db";
import evalCommand from "./eval";
import evidence from "./evidence";
import exportCommand from "./export";
import generate from "./generate";
import graph from "./graph";
import importCommand from "./import";
import ingest from "./ingest";
import nextSteps from "./next-steps";
import override from "./override";
import policy from "./policy";
import review from "./review";
import switchCommand from "./switch";
import token from "./token";
import user from "./user";

export const COMMANDS: readonly Command[] = [
  ask,
  audit,
  db,
  evalCommand,
  evidence,
  exportCommand,
  generate,
  graph,
  importCommand,
  ingest,
  nextSteps,
  override,
  policy,
  review,
  switchCommand,
  token,
  user,
];
